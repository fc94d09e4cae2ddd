"use client";
import Link from "next/link";
import { useState } from "react";
import type { z } from "zod";
import { TextArea } from "@/components/ui/text-area";
import { Button, Field, Input, Options, Select } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { applyExtractionAction } from "@/lib/actions/apply-extraction";
import { RATINGS } from "@/lib/playbook/schema";
import { applyExtractionSchema } from "@/lib/schemas/playbook";
import { ActionError } from "@/components/ui/action-error";
import { issueLines } from "@/lib/errors";
import { extractionFromForm, type EvaluationRow, type Rating } from "./extraction-draft";
import { plural } from "./format";

const EXAMPLE = `{
  "new_key_points": ["Use structured logging instead of print statements"],
  "evaluations": [{ "name": "kpt_001", "rating": "helpful" }]
}`;

/** Checks an extraction with the action's own schema; returns the input as given (the server reads it again and reports the items it skips) or the problems. */
function checkInput(
  extraction: unknown,
  sessionId: string,
): { input?: z.input<typeof applyExtractionSchema>; problems?: string[] } {
  const input = {
    extraction: extraction as z.input<typeof applyExtractionSchema>["extraction"],
    sessionId: sessionId.trim() || undefined,
  };
  const parsed = applyExtractionSchema.safeParse(input);
  return parsed.success ? { input } : { problems: issueLines(parsed.error.issues) };
}

/** Parses pasted JSON, then checks it as above. */
function readJson(json: string, sessionId: string): ReturnType<typeof checkInput> {
  try {
    return checkInput(JSON.parse(json), sessionId);
  } catch (error) {
    return {
      problems: [`Not valid JSON: ${error instanceof Error ? error.message : String(error)}`],
    };
  }
}

type Mode = "form" | "json";

const NEW_ROW: EvaluationRow = { name: "", rating: "helpful" };

/** The evaluations as rows: a key point's name (suggested from the playbook) and its rating. */
function EvaluationRows({
  rows,
  names,
  onChange,
}: {
  rows: EvaluationRow[];
  names: readonly string[];
  onChange: (rows: EvaluationRow[]) => void;
}) {
  const set = (i: number, row: EvaluationRow) => onChange(rows.map((r, j) => (j === i ? row : r)));
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-700">Evaluations</legend>
      <datalist id="extraction-key-point-names">
        {names.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      {rows.map((row, i) => (
        <div key={i} className="flex items-center gap-2" data-testid={`evaluation-row-${i}`}>
          <Input
            aria-label={`Key point name, row ${i + 1}`}
            list="extraction-key-point-names"
            placeholder="kpt_001"
            className="font-mono text-xs"
            value={row.name}
            onChange={(e) => set(i, { ...row, name: e.target.value })}
          />
          <Select
            aria-label={`Rating, row ${i + 1}`}
            value={row.rating}
            onChange={(e) => set(i, { ...row, rating: e.target.value as Rating })}
          >
            <Options values={RATINGS} />
          </Select>
          <Button
            variant="ghost"
            aria-label={`Remove row ${i + 1}`}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            ×
          </Button>
        </div>
      ))}
      <Button variant="secondary" onClick={() => onChange([...rows, NEW_ROW])}>
        Add an evaluation
      </Button>
    </fieldset>
  );
}

/**
 * Applies a reflector's ExtractionResult by hand: new points, ratings counted, then prune
 * proposals. Filled in as a form (new points as lines, evaluations as rows) or pasted as JSON.
 */
export function ApplyExtractionForm({ names = [] }: { names?: readonly string[] }) {
  const [mode, setMode] = useState<Mode>("form");
  const [json, setJson] = useState("");
  const [newPoints, setNewPoints] = useState("");
  const [evaluations, setEvaluations] = useState<EvaluationRow[]>([NEW_ROW]);
  const [sessionId, setSessionId] = useState("");
  const [problems, setProblems] = useState<string[]>([]);
  const apply = useAction(applyExtractionAction, {
    onSuccess: () => {
      setJson("");
      setNewPoints("");
      setEvaluations([NEW_ROW]);
    },
  });

  return (
    <form
      aria-label="Apply an extraction"
      noValidate
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        apply.reset();
        const drafted = extractionFromForm(newPoints, evaluations);
        const empty =
          mode === "form" &&
          drafted.new_key_points.length === 0 &&
          drafted.evaluations.length === 0;
        const read = empty
          ? { problems: ["Add a new key point or an evaluation."] }
          : mode === "json"
            ? readJson(json, sessionId)
            : checkInput(drafted, sessionId);
        setProblems(read.problems ?? []);
        if (read.input) apply.mutate(read.input);
      }}
    >
      <div role="tablist" aria-label="How to enter the extraction" className="flex gap-1 text-sm">
        {(
          [
            ["form", "Form"],
            ["json", "Paste JSON"],
          ] as const
        ).map(([value, label]) => (
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
            onClick={() => setMode(value)}
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
              name="newKeyPoints"
              rows={3}
              placeholder="Use structured logging instead of print statements"
              value={newPoints}
              onChange={(e) => setNewPoints(e.target.value)}
            />
          </Field>
          <EvaluationRows rows={evaluations} names={names} onChange={setEvaluations} />
        </>
      ) : (
        <Field
          label="ExtractionResult JSON"
          hint="Ratings: helpful, harmful or neutral. Malformed items, unknown names and texts already in the playbook are skipped, each with a warning."
        >
          <TextArea
            name="extraction"
            rows={7}
            className="font-mono text-xs"
            placeholder={EXAMPLE}
            value={json}
            onChange={(e) => setJson(e.target.value)}
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
        <Input name="sessionId" value={sessionId} onChange={(e) => setSessionId(e.target.value)} />
      </Field>
      <Button type="submit" disabled={apply.isPending}>
        {apply.isPending ? "Applying…" : "Apply extraction"}
      </Button>
      <ActionError failure={apply.error} />
      {apply.data ? <ExtractionOutcome {...apply.data} /> : null}
    </form>
  );
}

function ExtractionOutcome({
  added,
  evaluated,
  proposed,
  warnings,
}: {
  added: string[];
  evaluated: number;
  proposed: string[];
  warnings: string[];
}) {
  const names = (list: string[]) =>
    list.length > 0 ? <span className="font-mono">{list.join(", ")}</span> : "none";
  return (
    <div
      role="status"
      data-testid="extraction-result"
      className="space-y-1 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900"
    >
      <p data-testid="extraction-added">Added: {names(added)}</p>
      <p data-testid="extraction-evaluated">Counted {plural(evaluated, "rating")}.</p>
      <p data-testid="extraction-proposed">
        Proposed for pruning: {names(proposed)}
        {proposed.length > 0 ? (
          <>
            {" "}
            (
            <Link href="/playbook/prune" className="text-indigo-700 hover:underline">
              prune queue
            </Link>
            )
          </>
        ) : null}
      </p>
      {warnings.length > 0 ? (
        <div data-testid="extraction-warnings" className="text-amber-800">
          <p>Skipped {plural(warnings.length, "item")}:</p>
          <ul className="list-disc pl-5 font-mono text-xs">
            {warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
