"use client";
import { useFieldArray, type UseFormReturn } from "react-hook-form";
import { Button, Input, Options, Select } from "@/components/ui/primitives";
import { RATINGS } from "@/lib/playbook/schema";
import type { ExtractionDraft } from "./extraction-draft";

export const NEW_ROW = { name: "", rating: "helpful" } as const;

/** The evaluations as rows: a key point's name (suggested from the playbook) and its rating. */
export function EvaluationRows({
  form,
  names,
}: {
  form: UseFormReturn<ExtractionDraft, unknown, unknown>;
  names: readonly string[];
}) {
  const rows = useFieldArray({ control: form.control, name: "evaluations" });
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-700">Evaluations</legend>
      <datalist id="extraction-key-point-names">
        {names.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      {rows.fields.map((row, i) => (
        <div key={row.id} className="flex items-center gap-2" data-testid={`evaluation-row-${i}`}>
          <Input
            aria-label={`Key point name, row ${i + 1}`}
            list="extraction-key-point-names"
            placeholder="kpt_001"
            className="font-mono text-xs"
            {...form.register(`evaluations.${i}.name`)}
          />
          <Select aria-label={`Rating, row ${i + 1}`} {...form.register(`evaluations.${i}.rating`)}>
            <Options values={RATINGS} />
          </Select>
          <Button variant="ghost" aria-label={`Remove row ${i + 1}`} onClick={() => rows.remove(i)}>
            ×
          </Button>
        </div>
      ))}
      <Button variant="secondary" onClick={() => rows.append({ ...NEW_ROW })}>
        Add an evaluation
      </Button>
    </fieldset>
  );
}
