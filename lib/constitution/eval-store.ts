import { runEval, type EvalReport } from "./eval";
import type { EvalSet } from "./eval-schema";
import type { ConstitutionStore } from "./store";

/**
 * Runs an eval set on a store's lexical path, timing each prompt with `now`
 * (performance.now by default). What `charter constitution eval`, the Evals page
 * and the impact preview measure.
 */
export function evalLexical(store: ConstitutionStore, set: EvalSet, now: () => number = () => performance.now()): Promise<EvalReport> {
  return runEval(set, (prompt) => {
    const started = now();
    const got = store.retrieveLexical(prompt);
    const ms = now() - started;
    return { domains: got.domains.map((d) => d.domain), principles: got.principles.map((p) => ({ id: p.id, domain: p.domain, chars: p.chars })), ms };
  });
}

/** The ids a store's lexical path injects for a prompt (for replays). */
export function injectedIds(store: ConstitutionStore): (prompt: string) => string[] {
  return (prompt) => store.retrieveLexical(prompt).principles.map((p) => p.id);
}
