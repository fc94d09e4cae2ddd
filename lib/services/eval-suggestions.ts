import { EvalSuggester } from "@/lib/constitution/suggest";
import { constitutionVersions, type Version } from "@/lib/db/constitution";
import { envStoreConfig } from "@/lib/env";
import { NotFoundError } from "@/lib/errors";
import type { EvalSuggestions, SuggestEvalFixInput } from "@/lib/schemas/eval-suggestions";
import { yieldToLoop } from "./learned";

/** A search stops after this long: a suggestion is asked for by a person waiting on the page. */
export const SUGGEST_BUDGET_MS = 15_000;

// Versions are immutable, so a version's suggester (its eval run, and the runs of edits
// already tried) is kept for the next failure asked about; the latest few versions only.
const suggesters = new Map<number, Promise<EvalSuggester>>();
const MAX_SUGGESTERS = 2;

function suggesterOf(version: Version): Promise<EvalSuggester> {
  const made =
    suggesters.get(version.id) ??
    EvalSuggester.create({
      files: version.files,
      constitution: version.constitution,
      evals: version.evals,
      config: envStoreConfig(),
    });
  suggesters.delete(version.id);
  suggesters.set(version.id, made);
  made.catch(() => suggesters.delete(version.id));
  for (const oldest of suggesters.keys()) {
    if (suggesters.size <= MAX_SUGGESTERS) break;
    suggesters.delete(oldest);
  }
  return made;
}

/**
 * The smallest edit that fixes each failure of the eval case at `file:line` of a version
 * without making another case worse (lib/constitution/suggest.ts), as a diff of one
 * file to save on top of that version. Writes nothing; yields to the event loop between
 * candidates, and stops after SUGGEST_BUDGET_MS.
 */
export async function suggestEvalFix(input: SuggestEvalFixInput): Promise<EvalSuggestions> {
  const started = performance.now();
  const version = await constitutionVersions.get(input.versionId);
  const suggester = await suggesterOf(version);
  const out = await suggester.suggest(input.file, input.line, {
    now: () => performance.now(),
    budgetMs: SUGGEST_BUDGET_MS,
    pause: yieldToLoop,
  });
  if (!out)
    throw new NotFoundError(
      `No eval case starts at ${input.file}:${input.line} in version ${version.id}.`,
    );
  return { ...out, versionId: version.id, ms: Math.round(performance.now() - started) };
}
