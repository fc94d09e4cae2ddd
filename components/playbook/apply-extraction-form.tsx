"use client";
import { useForm, useWatch } from "react-hook-form";
import { ActionError } from "@/components/ui/action-error";
import { Button, Field, Input } from "@/components/ui/primitives";
import { TextArea } from "@/components/ui/text-area";
import { useAction } from "@/components/ui/use-action";
import { applyExtractionAction } from "@/lib/actions/apply-extraction";
import { EvaluationRows, NEW_ROW } from "./evaluation-rows";
import {
  extractionResolver,
  type ApplyExtractionInput,
  type ExtractionDraft,
} from "./extraction-draft";
import { ExtractionOutcome } from "./extraction-outcome";

const EXAMPLE = `{
  "new_key_points": ["Use structured logging instead of print statements"],
  "evaluations": [{ "name": "kpt_001", "rating": "helpful" }]
}`;

const MODES = [
  ["form", "Form"],
  ["json", "Paste JSON"],
] as const;

/**
 * Applies a reflector's ExtractionResult by hand: new points, ratings counted, then prune
 * proposals. Filled in as a form (new points as lines, evaluations as rows) or pasted as JSON;
 * either way it is checked with the action's own schema before it is sent.
 */
export function ApplyExtractionForm({ names = [] }: { names?: readonly string[] }) {
  const form = useForm<ExtractionDraft, unknown, ApplyExtractionInput>({
    resolver: extractionResolver,
    defaultValues: { mode: "form", json: "", newPoints: "", evaluations: [NEW_ROW], sessionId: "" },
  });
  const mode = useWatch({ control: form.control, name: "mode" });
  const apply = useAction(applyExtractionAction, {
    onSuccess: () =>
      form.reset({ ...form.getValues(), json: "", newPoints: "", evaluations: [NEW_ROW] }),
  });
  const problems = form.formState.errors.root?.schema?.message?.split("\n") ?? [];
  // The server's refusal is shown whole below (its paths name parts of the JSON, not fields).
  const submit = form.handleSubmit((input) => apply.mutate(input));

  return (
    <form
      aria-label="Apply an extraction"
      noValidate
      className="space-y-3"
      onSubmit={(e) => {
        apply.reset();
        void submit(e);
      }}
    >
      <div role="tablist" aria-label="How to enter the extraction" className="flex gap-1 text-sm">
        {MODES.map(([value, label]) => (
          <button
            key={value}
            type="button"
            role="tab"
            aria-selected={mode === value}
            className={
              mode === value
                ? "rounded-md bg-indigo-50 px-2 py-1 font-medium text-indigo-700"
                : "rounded-md px-2 py-1 text-slate-600 hover:bg-slate-100"
            }
            onClick={() => form.setValue("mode", value)}
          >
            {label}
          </button>
        ))}
      </div>
      {mode === "form" ? (
        <>
          <Field
            label="New key points"
            hint="One per line. Texts already in the playbook are skipped, with a warning."
          >
            <TextArea
              rows={3}
              placeholder="Use structured logging instead of print statements"
              {...form.register("newPoints")}
            />
          </Field>
          <EvaluationRows form={form} names={names} />
        </>
      ) : (
        <Field
          label="ExtractionResult JSON"
          hint="Ratings: helpful, harmful or neutral. Malformed items, unknown names and texts already in the playbook are skipped, each with a warning."
        >
          <TextArea
            rows={7}
            className="font-mono text-xs"
            placeholder={EXAMPLE}
            {...form.register("json")}
          />
        </Field>
      )}
      {problems.length > 0 ? (
        <ul
          role="alert"
          className="space-y-0.5 rounded-md bg-red-50 px-3 py-2 font-mono text-xs text-red-700"
        >
          {problems.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      ) : null}
      <Field
        label="Session id (optional)"
        hint="The session the ratings came from; it is kept as evidence."
      >
        <Input {...form.register("sessionId")} />
      </Field>
      <Button type="submit" disabled={apply.isPending}>
        {apply.isPending ? "Applying…" : "Apply extraction"}
      </Button>
      <ActionError failure={apply.error} />
      {apply.data ? <ExtractionOutcome {...apply.data} /> : null}
    </form>
  );
}
