import type { ConstitutionStoreConfigInput } from "./config";
import {
  runEval,
  scoreCase,
  type CaseResult,
  type EvalFailure,
  type EvalReport,
  type FailureKind,
  type Retrieved,
} from "./eval";
import type { EvalCase, EvalSet } from "./eval-schema";
import { compareEvals, type EvalComparison } from "./impact";
import { parseConstitution, withFile, type ConstitutionFile } from "./parse";
import { CORE_FILE, type Constitution } from "./schema";
import { ConstitutionStore } from "./store";
import { candidateEdits } from "./suggest-candidates";
import { applyEdit, describeEdit, editKey, type SuggestedEdit } from "./suggest-edits";
import { editSource, type EditSource } from "./suggest-source";

export type { KeywordTarget, SuggestedEdit } from "./suggest-edits";
export { describeEdit } from "./suggest-edits";

/**
 * Suggestions people accept (issue 24): for a failing eval case, the smallest single edit
 * of the overlays' keywords or `NOT for:` sentences that fixes it and makes no case
 * worse, found by running the whole eval set on the edited constitution. Pure: the caller
 * supplies the files, the clock (if any) and how much work to allow.
 */

/** A constitution as its files and as parsed from them, with its eval set and the retrieval settings to run it with. */
export type SuggestInput = {
  files: readonly ConstitutionFile[];
  constitution: Constitution;
  evals: EvalSet;
  config?: ConstitutionStoreConfigInput;
};

/** How much work one case may take. */
export type SuggestLimits = {
  /** Candidate edits tried at most (each builds an index of the edited constitution, ~50 ms on the shipped one). */
  maxCandidates?: number;
  /** Stop trying candidates after this many milliseconds by `now` (no `now`: no time limit). */
  budgetMs?: number;
  now?: () => number;
  /** Awaited before each candidate: a server yields to its event loop there. */
  pause?: () => Promise<void>;
};

/** The default cap on candidates per case: enough for a long prompt's words and pairs on a few lists. */
export const DEFAULT_MAX_CANDIDATES = 120;

/** A case the edit makes worse, and how. */
export type Worsened = {
  file: string;
  line: number;
  prompt: string;
  how: "lost_hit" | "new_false_injection" | "new_trap" | "lost_domain_hit";
};

export type Suggestion = {
  edit: SuggestedEdit;
  /** The edit as a sentence. */
  summary: string;
  /** The file the edit changes, its text after the edit, and a unified diff of it. */
  path: string;
  text: string;
  diff: string;
  /** The eval set before and after the edit, as the impact preview compares them. */
  comparison: EvalComparison;
  /** Failures of the whole set that the edit clears, this case's included. */
  cleared: EvalFailure[];
};

export type FailureSuggestion = { failure: EvalFailure; suggestion: Suggestion | null };

export type CaseSuggestions = {
  prompt: string;
  file: string;
  line: number;
  failures: FailureSuggestion[];
  /** Candidate edits enumerated for the case, and how many were tried. */
  candidates: number;
  tried: number;
  /** `complete`: every candidate was tried or every failure got a suggestion; otherwise the limit that stopped the search. */
  search: "complete" | "candidate_limit" | "time_limit";
};

/** How many whole-set runs of edits are kept for the next cases (a CLI run over every failure). */
const KEPT_RUNS = 64;

function retrieverOf(store: ConstitutionStore): (prompt: string) => Retrieved {
  return (prompt) => {
    const got = store.retrieveLexical(prompt);
    return {
      domains: got.domains.map((d) => d.domain),
      principles: got.principles.map((p) => ({ id: p.id, domain: p.overlay, chars: p.chars })),
      ms: 0,
    };
  };
}

/** Whether a case's result no longer has this kind of failure. */
function clears(kind: FailureKind, r: CaseResult): boolean {
  if (kind === "domain_miss") return r.domain_hit_at_3 !== false;
  if (kind === "principle_miss") return r.principle_hit !== false;
  if (kind === "false_injection") return r.false_injections.length === 0;
  return r.trapped.length === 0;
}

/** The cases that `after` makes worse than `before` (matched by prompt): a lost hit, a new false injection or trap, a lost domain hit at 1 or 3. */
export function worsenedCases(before: EvalReport, after: EvalReport): Worsened[] {
  const earlier = new Map(before.cases.map((c) => [c.prompt, c]));
  return after.cases.flatMap((a): Worsened[] => {
    const b = earlier.get(a.prompt);
    if (!b) return [];
    const how: Worsened["how"] | null =
      b.principle_hit === true && a.principle_hit === false
        ? "lost_hit"
        : b.false_injections.length === 0 && a.false_injections.length > 0
          ? "new_false_injection"
          : b.trap === false && a.trap === true
            ? "new_trap"
            : (b.domain_hit_at_1 === true && a.domain_hit_at_1 === false) ||
                (b.domain_hit_at_3 === true && a.domain_hit_at_3 === false)
              ? "lost_domain_hit"
              : null;
    return how ? [{ file: a.file, line: a.line, prompt: a.prompt, how }] : [];
  });
}

/** Keyword lists sorted: retrieval does not depend on their order. */
const contentOf = (value: unknown) =>
  JSON.stringify(value, (key, v: unknown) =>
    key === "defined_at"
      ? undefined
      : key === "keywords" && Array.isArray(v)
        ? [...(v as string[])].sort()
        : v,
  );

/**
 * Whether the edited file says what the edit made in memory: the file parsed with
 * core.yaml alone (the rest cannot change what one file holds), its overlay or its core
 * principles compared with the edited constitution's. Parsing the whole constitution
 * again would cost more than the eval run.
 */
function writes(
  files: readonly ConstitutionFile[],
  source: EditSource,
  edited: Constitution,
): boolean {
  const core = files.find((f) => f.path === CORE_FILE);
  if (!core) return false;
  const parsed = parseConstitution(withFile([core], source.path, source.text));
  if (!parsed.ok) return false;
  if (source.path === CORE_FILE)
    return contentOf(parsed.constitution.core) === contentOf(edited.core);
  const [domain] = Object.keys(parsed.constitution.overlays);
  return (
    domain !== undefined &&
    contentOf(parsed.constitution.overlays[domain]) === contentOf(edited.overlays[domain])
  );
}

const failureKey = (f: Pick<EvalFailure, "file" | "line" | "kind">) =>
  `${f.file}:${f.line}:${f.kind}`;

/**
 * Finds suggestions over one constitution and eval set. `create` runs the set once
 * (the base every edit is measured against); `suggest` searches one case.
 */
export class EvalSuggester {
  private readonly runs = new Map<string, EvalReport>();

  private constructor(
    private readonly input: SuggestInput,
    /** The eval set on the constitution as it is. */
    readonly base: EvalReport,
  ) {}

  static async create(input: SuggestInput): Promise<EvalSuggester> {
    const store = new ConstitutionStore(input.constitution, input.config ?? {});
    return new EvalSuggester(input, await runEval(input.evals, retrieverOf(store)));
  }

  /** The failing cases, in the eval report's order (file, then line), each once. */
  failingCases(): { file: string; line: number; prompt: string }[] {
    const seen = new Set<string>();
    return this.base.failures.flatMap((f) => {
      const at = `${f.file}:${f.line}`;
      if (seen.has(at)) return [];
      seen.add(at);
      return [{ file: f.file, line: f.line, prompt: f.prompt }];
    });
  }

  /** The eval run with an edit made: kept for later cases, the oldest dropped first. */
  private async runWith(edit: SuggestedEdit, store: ConstitutionStore): Promise<EvalReport> {
    const key = editKey(edit);
    const kept = this.runs.get(key);
    if (kept) return kept;
    const report = await runEval(this.input.evals, retrieverOf(store));
    this.runs.set(key, report);
    for (const oldest of this.runs.keys()) {
      if (this.runs.size <= KEPT_RUNS) break;
      this.runs.delete(oldest);
    }
    return report;
  }

  /**
   * For each failure of the case at `file:line`, the smallest edit (candidateEdits'
   * order) that clears it and makes no case worse (worsenedCases), or null; null when
   * no case is at `file:line`. Each candidate is screened on the case's own prompt; one
   * that clears a failure runs the whole set; one that makes no case worse is written
   * into its YAML file, which must parse to what was measured (writes).
   */
  async suggest(
    file: string,
    line: number,
    limits: SuggestLimits = {},
  ): Promise<CaseSuggestions | null> {
    const index = this.input.evals.cases.findIndex((c) => c.file === file && c.line === line);
    const evalCase = this.input.evals.cases[index];
    const result = this.base.cases[index];
    if (!evalCase || !result) return null;
    const failures = this.base.failures.filter((f) => f.file === file && f.line === line);
    const found = new Map<string, Suggestion>();
    const kinds = failures.map((f) => f.kind);
    const candidates = candidateEdits(this.input.constitution, evalCase, result, kinds);
    const max = limits.maxCandidates ?? DEFAULT_MAX_CANDIDATES;
    const started = limits.now?.();
    let tried = 0;
    let search: CaseSuggestions["search"] = "complete";
    for (const edit of candidates) {
      if (found.size === failures.length) break;
      if (tried >= max) {
        search = "candidate_limit";
        break;
      }
      if (
        limits.now &&
        limits.budgetMs !== undefined &&
        limits.now() - started! >= limits.budgetMs
      ) {
        search = "time_limit";
        break;
      }
      await limits.pause?.();
      tried += 1;
      const open = failures.filter((f) => !found.has(failureKey(f)));
      const suggestion = await this.tryEdit(edit, evalCase, open);
      if (suggestion)
        for (const f of open)
          if (suggestion.cleared.some((c) => failureKey(c) === failureKey(f)))
            found.set(failureKey(f), suggestion);
    }
    return {
      prompt: evalCase.prompt,
      file,
      line,
      failures: failures.map((failure) => ({
        failure,
        suggestion: found.get(failureKey(failure)) ?? null,
      })),
      candidates: candidates.length,
      tried,
      search,
    };
  }

  private async tryEdit(
    edit: SuggestedEdit,
    evalCase: EvalCase,
    open: readonly EvalFailure[],
  ): Promise<Suggestion | null> {
    const { files, config = {} } = this.input;
    let run = this.runs.get(editKey(edit));
    if (!run) {
      const store = new ConstitutionStore(applyEdit(this.input.constitution, edit), config);
      const own = scoreCase(evalCase, retrieverOf(store)(evalCase.prompt));
      if (!open.some((f) => clears(f.kind, own))) return null;
      run = await this.runWith(edit, store);
    }
    const screened = run.cases.find((c) => c.file === evalCase.file && c.line === evalCase.line);
    if (!screened || !open.some((f) => clears(f.kind, screened))) return null;
    if (worsenedCases(this.base, run).length) return null;

    const source = editSource(files, edit);
    if (!source || !writes(files, source, applyEdit(this.input.constitution, edit))) return null;
    const remaining = new Set(run.failures.map(failureKey));
    const cleared = this.base.failures.filter((f) => !remaining.has(failureKey(f)));
    if (!open.some((f) => cleared.some((c) => failureKey(c) === failureKey(f)))) return null;
    return {
      edit,
      summary: describeEdit(edit),
      ...source,
      comparison: compareEvals(this.base, run),
      cleared,
    };
  }
}
