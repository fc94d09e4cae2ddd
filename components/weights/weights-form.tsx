"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useWatch } from "react-hook-form";
import { Button, ErrorText, Field, Input } from "@/components/ui/primitives";
import { useActionForm } from "@/components/ui/use-action-form";
import { formatWeighted } from "@/lib/format";
import { saveWeightsAction } from "@/lib/actions/save-weights";
import {
  DEFAULT_WEIGHTS,
  PRINCIPLE_QUESTIONS,
  PRINCIPLES,
  PrincipleScore,
  type Principle,
} from "@/lib/reward";
import { saveWeightsSchema } from "@/lib/schemas/turns";
import type { RecomputeJobProgress } from "@/lib/schemas/weight-rows";
import { RECOMPUTE_QUERY_KEY, RecomputeProgress } from "./recompute-progress";

/** A new weight set, one weight per principle; saving queues a recompute of every stored total, shown as it runs. */
export function WeightsForm({
  current,
  latestJob,
}: {
  current: Record<string, number>;
  latestJob: RecomputeJobProgress | null;
}) {
  const queryClient = useQueryClient();
  const {
    form,
    mutation: save,
    submit,
    error,
    formFailure,
  } = useActionForm(saveWeightsSchema, saveWeightsAction, {
    defaultValues: {
      weights: Object.fromEntries(PRINCIPLES.map((p) => [p, current[p] ?? 1])) as Record<
        Principle,
        number
      >,
      message: "",
    },
    onSuccess: (_, f) => {
      f.setValue("message", "");
      void queryClient.invalidateQueries({ queryKey: RECOMPUTE_QUERY_KEY });
    },
  });
  // Empty or unreadable inputs are NaN (valueAsNumber); the schema says so on submit.
  const weights = useWatch({ control: form.control, name: "weights" }) as Record<Principle, number>;
  const valid = PRINCIPLES.every((p) => Number.isFinite(weights[p]));
  const jobId =
    save.data?.jobId ??
    (latestJob && ["queued", "running"].includes(latestJob.status) ? latestJob.id : undefined);

  return (
    <form aria-label="Weights" noValidate className="space-y-4" onSubmit={submit}>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {PRINCIPLES.map((p) => (
          <Field
            key={p}
            label={p}
            hint={`${PRINCIPLE_QUESTIONS[p]} Default ${DEFAULT_WEIGHTS[p]}.`}
            error={error(`weights.${p}`)}
          >
            <Input
              aria-label={`Weight of ${p}`}
              type="number"
              inputMode="decimal"
              min={0}
              max={100}
              step={0.1}
              defaultValue={current[p] ?? 1}
              {...form.register(`weights.${p}`, { valueAsNumber: true })}
            />
          </Field>
        ))}
      </div>
      <p className="text-sm text-slate-700" data-testid="draft-max-total">
        Max total under these weights:{" "}
        <span className="font-semibold tabular-nums">
          {valid ? formatWeighted(PrincipleScore.maxTotal(weights)) : "—"}
        </span>
        <span className="text-slate-500"> (a perfect turn&apos;s weighted total).</span>
      </p>
      <Field
        label="Message"
        hint="Why the weights change; kept in the history and the audit log."
        error={error("message")}
      >
        <Input {...form.register("message")} />
      </Field>
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save weights"}
        </Button>
        <Button
          variant="ghost"
          onClick={() => {
            for (const p of PRINCIPLES) form.setValue(`weights.${p}`, DEFAULT_WEIGHTS[p]);
          }}
        >
          Reset to the defaults
        </Button>
      </div>
      {formFailure ? <ErrorText>{formFailure.message}</ErrorText> : null}
      {save.data ? (
        <p role="status" className="text-sm text-emerald-800">
          Saved as weight set {save.data.weightSetId}. Stored totals are being recomputed.
        </p>
      ) : null}
      {jobId !== undefined ? <RecomputeProgress jobId={jobId} initial={latestJob} /> : null}
    </form>
  );
}
