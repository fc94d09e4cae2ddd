"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button, ErrorText, Field, Input } from "@/components/ui/primitives";
import { fieldError, useAction } from "@/components/ui/use-action";
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
import { RECOMPUTE_QUERY_KEY, RecomputeProgress, type RecomputeJob } from "./recompute-progress";

type Draft = Record<Principle, string>;

function toNumbers(draft: Draft): Record<Principle, number> {
  return Object.fromEntries(
    PRINCIPLES.map((p) => [p, draft[p].trim() === "" ? Number.NaN : Number(draft[p])]),
  ) as Record<Principle, number>;
}

/** A new weight set, one weight per principle; saving queues a recompute of every stored total, shown as it runs. */
export function WeightsForm({
  current,
  latestJob,
}: {
  current: Record<string, number>;
  latestJob: RecomputeJob | null;
}) {
  const [draft, setDraft] = useState<Draft>(
    () => Object.fromEntries(PRINCIPLES.map((p) => [p, String(current[p] ?? 1)])) as Draft,
  );
  const [message, setMessage] = useState("");
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const queryClient = useQueryClient();
  const save = useAction(saveWeightsAction, {
    onSuccess: () => {
      setMessage("");
      void queryClient.invalidateQueries({ queryKey: RECOMPUTE_QUERY_KEY });
    },
  });
  const error = (field: string) => clientErrors[field] ?? fieldError(save.error, field);
  const weights = toNumbers(draft);
  const valid = PRINCIPLES.every((p) => Number.isFinite(weights[p]));
  const jobId =
    save.data?.jobId ??
    (latestJob && ["queued", "running"].includes(latestJob.status) ? latestJob.id : undefined);

  return (
    <form
      aria-label="Weights"
      noValidate
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        // The schema the server action uses, so the form and the server agree.
        const parsed = saveWeightsSchema.safeParse({ weights, message });
        if (!parsed.success) {
          setClientErrors(
            Object.fromEntries(
              parsed.error.issues.map((i) => [i.path.map(String).join("."), i.message]),
            ),
          );
          return;
        }
        setClientErrors({});
        save.mutate(parsed.data);
      }}
    >
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
              name={p}
              type="number"
              inputMode="decimal"
              min={0}
              max={100}
              step={0.1}
              value={draft[p]}
              onChange={(e) => setDraft({ ...draft, [p]: e.target.value })}
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
        <Input name="message" value={message} onChange={(e) => setMessage(e.target.value)} />
      </Field>
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save weights"}
        </Button>
        <Button variant="ghost" onClick={() => setDraft({ ...DEFAULT_WEIGHTS_DRAFT })}>
          Reset to seed defaults
        </Button>
      </div>
      {save.isError && !Array.isArray(save.error.error.details) ? (
        <ErrorText>{save.error.message}</ErrorText>
      ) : null}
      {save.data ? (
        <p role="status" className="text-sm text-emerald-800">
          Saved as weight set {save.data.weightSetId}. Stored totals are being recomputed.
        </p>
      ) : null}
      {jobId !== undefined ? <RecomputeProgress jobId={jobId} initial={latestJob} /> : null}
    </form>
  );
}

const DEFAULT_WEIGHTS_DRAFT = Object.fromEntries(
  PRINCIPLES.map((p) => [p, String(DEFAULT_WEIGHTS[p])]),
) as Draft;
