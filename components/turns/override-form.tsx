"use client";
import { TextArea } from "@/components/ui/text-area";
import { Button, ErrorText, Field, Input, Options, Select } from "@/components/ui/primitives";
import { useActionForm } from "@/components/ui/use-action-form";
import { overrideScoreAction } from "@/lib/actions/override-score";
import { PRINCIPLES } from "@/lib/reward";
import { overrideScoreSchema } from "@/lib/schemas/turns";
import { formatUnit, formatWeighted } from "@/lib/format";

/** An editor sets one principle's score on this turn, with a reason; the engine's score is kept beside it. */
export function OverrideForm({ turnId }: { turnId: string }) {
  const {
    form,
    mutation: override,
    submit,
    error,
    formFailure,
  } = useActionForm(overrideScoreSchema, overrideScoreAction, {
    defaultValues: { turnId, principle: "tasteful", reason: "" },
    onSuccess: (_, f) => {
      f.resetField("value");
      f.resetField("reason");
    },
  });

  return (
    <form aria-label="Override a score" noValidate className="space-y-3" onSubmit={submit}>
      <Field label="Principle" error={error("principle")}>
        <Select className="w-full" defaultValue="tasteful" {...form.register("principle")}>
          <Options values={PRINCIPLES} />
        </Select>
      </Field>
      <Field label="Score" hint="From 0 to 1." error={error("value")}>
        <Input
          type="number"
          inputMode="decimal"
          min={0}
          max={1}
          step={0.05}
          {...form.register("value", { valueAsNumber: true })}
        />
      </Field>
      <Field label="Reason" error={error("reason")}>
        <TextArea rows={3} {...form.register("reason")} />
      </Field>
      <Button type="submit" disabled={override.isPending}>
        {override.isPending ? "Saving…" : "Override"}
      </Button>
      {formFailure ? <ErrorText>{formFailure.message}</ErrorText> : null}
      {override.data ? (
        <p
          role="status"
          data-testid="override-result"
          className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900"
        >
          Saved. New totals: normalized {formatUnit(override.data.normalized_total)}, weighted{" "}
          {formatWeighted(override.data.weighted_total)}.
        </p>
      ) : null}
    </form>
  );
}
