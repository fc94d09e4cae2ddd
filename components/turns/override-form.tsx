"use client";
import { useState } from "react";
import { TextArea } from "@/components/constitution/text-area";
import { Button, ErrorText, Field, Input, Options, Select } from "@/components/ui/primitives";
import { fieldError, useAction } from "@/components/ui/use-action";
import { overrideScoreAction } from "@/lib/actions/override-score";
import { PRINCIPLES, type Principle } from "@/lib/reward";
import { overrideScoreSchema } from "@/lib/schemas/turns";
import { formatUnit, formatWeighted } from "@/lib/format";

/** An editor sets one principle's score on this turn, with a reason; the engine's score is kept beside it. */
export function OverrideForm({ turnId }: { turnId: string }) {
  const [form, setForm] = useState({ principle: "tasteful" as Principle, value: "", reason: "" });
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const override = useAction(overrideScoreAction, {
    onSuccess: () => setForm((f) => ({ ...f, value: "", reason: "" })),
  });
  const error = (field: string) => clientErrors[field] ?? fieldError(override.error, field);

  return (
    <form
      aria-label="Override a score"
      noValidate
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        const input = {
          turnId,
          principle: form.principle,
          value: form.value.trim() === "" ? Number.NaN : Number(form.value),
          reason: form.reason,
        };
        // The schema the server action uses, so the form and the server agree.
        const parsed = overrideScoreSchema.safeParse(input);
        if (!parsed.success) {
          setClientErrors(
            Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])),
          );
          return;
        }
        setClientErrors({});
        override.mutate(parsed.data);
      }}
    >
      <Field label="Principle" error={error("principle")}>
        <Select
          name="principle"
          className="w-full"
          value={form.principle}
          onChange={(e) => setForm({ ...form, principle: e.target.value as Principle })}
        >
          <Options values={PRINCIPLES} />
        </Select>
      </Field>
      <Field label="Score" hint="From 0 to 1." error={error("value")}>
        <Input
          name="value"
          type="number"
          inputMode="decimal"
          min={0}
          max={1}
          step={0.05}
          value={form.value}
          onChange={(e) => setForm({ ...form, value: e.target.value })}
        />
      </Field>
      <Field label="Reason" error={error("reason")}>
        <TextArea
          name="reason"
          rows={3}
          value={form.reason}
          onChange={(e) => setForm({ ...form, reason: e.target.value })}
        />
      </Field>
      <Button type="submit" disabled={override.isPending}>
        {override.isPending ? "Saving…" : "Override"}
      </Button>
      {override.isError && !Array.isArray(override.error.error.details) ? (
        <ErrorText>{override.error.message}</ErrorText>
      ) : null}
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
