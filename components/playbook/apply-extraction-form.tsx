"use client";
import Link from "next/link";
import { useState } from "react";
import type { z } from "zod";
import { TextArea } from "@/components/constitution/text-area";
import { Button, Field, Input } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { applyExtractionAction } from "@/lib/actions/apply-extraction";
import { applyExtractionSchema } from "@/lib/schemas/playbook";
import { ActionError, issueLines } from "./action-error";
import { plural } from "./format";

const EXAMPLE = `{
  "new_key_points": ["Use structured logging instead of print statements"],
  "evaluations": [{ "name": "kpt_001", "rating": "helpful" }]
}`;

/**
 * Parses the pasted JSON and checks it with the action's own schema; returns the input
 * as pasted (the server reads it again and reports the items it skips) or the problems.
 */
function readInput(json: string, sessionId: string): { input?: z.input<typeof applyExtractionSchema>; problems?: string[] } {
  let extraction: unknown;
  try {
    extraction = JSON.parse(json);
  } catch (error) {
    return { problems: [`Not valid JSON: ${error instanceof Error ? error.message : String(error)}`] };
  }
  const input = { extraction: extraction as z.input<typeof applyExtractionSchema>["extraction"], sessionId: sessionId.trim() || undefined };
  const parsed = applyExtractionSchema.safeParse(input);
  return parsed.success ? { input } : { problems: issueLines(parsed.error.issues) };
}

/** Applies a reflector's ExtractionResult by hand: new points, ratings counted, then prune proposals. */
export function ApplyExtractionForm() {
  const [json, setJson] = useState("");
  const [sessionId, setSessionId] = useState("");
  const [problems, setProblems] = useState<string[]>([]);
  const apply = useAction(applyExtractionAction, { onSuccess: () => setJson("") });

  return (
    <form
      aria-label="Apply an extraction"
      noValidate
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        apply.reset();
        const read = readInput(json, sessionId);
        setProblems(read.problems ?? []);
        if (read.input) apply.mutate(read.input);
      }}
    >
      <Field label="ExtractionResult JSON" hint="Ratings: helpful, harmful or neutral. Malformed items, unknown names and texts already in the playbook are skipped, each with a warning.">
        <TextArea name="extraction" rows={7} className="font-mono text-xs" placeholder={EXAMPLE} value={json} onChange={(e) => setJson(e.target.value)} />
      </Field>
      {problems.length > 0 ? (
        <ul role="alert" className="space-y-0.5 rounded-md bg-red-50 px-3 py-2 font-mono text-xs text-red-700">
          {problems.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      ) : null}
      <Field label="Session id (optional)" hint="The session the ratings came from; it is kept as evidence.">
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

function ExtractionOutcome({ added, evaluated, proposed, warnings }: { added: string[]; evaluated: number; proposed: string[]; warnings: string[] }) {
  const names = (list: string[]) => (list.length > 0 ? <span className="font-mono">{list.join(", ")}</span> : "none");
  return (
    <div role="status" data-testid="extraction-result" className="space-y-1 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
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
