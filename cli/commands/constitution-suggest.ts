import path from "node:path";
import type { Command } from "commander";
import { formatIssue, METRIC_LABELS } from "@/lib/constitution";
import {
  DEFAULT_MAX_CANDIDATES,
  EvalSuggester,
  type CaseSuggestions,
  type Suggestion,
} from "@/lib/constitution/suggest";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { CliError, EXIT } from "../errors";

type Options = { dir?: string; case?: string; json?: boolean; maxCandidates?: string };

const NO_FIX = "no single edit fixes it without breaking another case";
const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(4));

/** `eval/domains.yaml:403` as a file and a line. */
function caseAt(text: string): { file: string; line: number } {
  const match = /^(.+):(\d+)$/.exec(text.trim());
  if (!match) throw new CliError(`--case takes file:line, e.g. eval/domains.yaml:403.`, EXIT.usage);
  return { file: match[1]!, line: Number(match[2]) };
}

/** The metrics an edit changes, as `principle hit rate 0.6900 -> 0.6950`. */
function metricChanges(s: Suggestion): string {
  const changed = s.comparison.metrics.filter((m) => m.before !== m.after);
  if (changed.length === 0) return "no metric changes";
  return changed
    .map((m) => `${METRIC_LABELS[m.name]} ${num(m.before)} -> ${num(m.after)}`)
    .join(", ");
}

/** One case's failures, each with its suggestion's diff and metric change, or why there is none. */
function formatCase(out: CaseSuggestions): string {
  const lines = [`${out.file}:${out.line}  ${JSON.stringify(out.prompt)}`];
  const shown = new Set<Suggestion>();
  for (const { failure, suggestion } of out.failures) {
    lines.push(`  ${failure.kind}: ${failure.message}`);
    if (!suggestion) {
      lines.push(
        out.search === "complete"
          ? `    ${NO_FIX} (${out.tried} tried)`
          : `    no single edit found within the limit (${out.tried} of ${out.candidates} tried)`,
      );
      continue;
    }
    lines.push(
      `    suggestion: ${suggestion.summary}${shown.has(suggestion) ? " (as above)" : ""}`,
    );
    if (shown.has(suggestion)) continue;
    shown.add(suggestion);
    lines.push(`    ${metricChanges(suggestion)}`);
    const others = suggestion.cleared.filter((f) => f.file !== out.file || f.line !== out.line);
    if (others.length)
      lines.push(
        `    also clears ${others.map((f) => `${f.kind} at ${f.file}:${f.line}`).join(", ")}`,
      );
    lines.push(
      ...suggestion.diff
        .trimEnd()
        .split("\n")
        .map((l) => `    ${l}`),
    );
  }
  return lines.join("\n");
}

export function registerConstitutionSuggest(constitution: Command): void {
  constitution
    .command("suggest")
    .description(
      "For each failing eval case, the smallest edit of the overlays' keywords or NOT for: sentences that fixes it without making another case worse, as a diff",
    )
    .option(
      "--dir <dir>",
      "constitution directory",
      path.relative(process.cwd(), SHIPPED_CONSTITUTION_DIR) || ".",
    )
    .option("--case <file:line>", "only the case at this place, e.g. eval/domains.yaml:403")
    .option(
      "--max-candidates <n>",
      `candidate edits to try per case at most (default ${DEFAULT_MAX_CANDIDATES})`,
    )
    .option("--json", "print the suggestions as JSON")
    .action(async (options: Options) => {
      const dir = path.resolve(options.dir ?? SHIPPED_CONSTITUTION_DIR);
      const maxCandidates =
        options.maxCandidates === undefined ? undefined : Number(options.maxCandidates);
      if (maxCandidates !== undefined && !(Number.isInteger(maxCandidates) && maxCandidates > 0))
        throw new CliError("--max-candidates takes a whole number above 0.", EXIT.usage);
      const loaded = await loadConstitution(dir);
      if (!loaded.ok) {
        for (const issue of loaded.issues) console.error(formatIssue(issue));
        throw new CliError(`${dir} is not a valid constitution.`);
      }
      const started = performance.now();
      const suggester = await EvalSuggester.create({
        files: loaded.files,
        constitution: loaded.constitution,
        evals: loaded.evals,
      });
      let cases = suggester.failingCases();
      if (options.case) {
        const at = caseAt(options.case);
        if (!loaded.evals.cases.some((c) => c.file === at.file && c.line === at.line))
          throw new CliError(`No eval case starts at ${at.file}:${at.line}.`, EXIT.usage);
        cases = cases.filter((c) => c.file === at.file && c.line === at.line);
      }
      const results: CaseSuggestions[] = [];
      for (const c of cases) {
        const out = await suggester.suggest(c.file, c.line, { maxCandidates });
        if (out) results.push(out);
        if (!options.json) console.log(`${out ? formatCase(out) : ""}\n`);
      }
      const failures = results.flatMap((r) => r.failures);
      const fixed = failures.filter((f) => f.suggestion).length;
      const seconds = (performance.now() - started) / 1000;
      if (options.json) {
        console.log(
          JSON.stringify(
            {
              dir,
              metrics: suggester.base.metrics,
              failures: failures.length,
              suggested: fixed,
              cases: results.map((r) => ({
                ...r,
                failures: r.failures.map(({ failure, suggestion }) => ({
                  failure,
                  // The file's whole text is left out: the diff says the same.
                  suggestion: suggestion && { ...suggestion, text: undefined },
                })),
              })),
            },
            null,
            2,
          ),
        );
        return;
      }
      console.log(
        cases.length === 0
          ? options.case
            ? `${options.case} passes: nothing to suggest.`
            : "No failing cases: nothing to suggest."
          : `${fixed} of ${failures.length} failures have a suggestion (${results.length} cases, ${seconds.toFixed(1)} s). Each is one edit measured alone: apply one, then run this again.`,
      );
    });
}
