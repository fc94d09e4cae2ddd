import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import {
  calibrateSemantic,
  compareEvals,
  ConstitutionStore,
  crossValidate,
  evalLexical,
  formatIssue,
  injectedIds,
  parseConstitution,
  replayImpact,
  type Constitution,
  type EvalComparison,
  type EvalReport,
  type EvalSet,
  type ParseResult,
  type ReplayImpact,
} from "@/lib/constitution";
import { SemanticIndex, semanticDocuments } from "@/lib/constitution/semantic";
import { embeddingSettings } from "@/lib/env";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { createEmbeddingClient } from "@/lib/llm/embeddings";
import { CliError } from "../errors";
import { formatComparison, formatCrossValidated, formatReplay, formatReport } from "./eval-format";

type Options = {
  dir?: string;
  eval?: string;
  against?: string;
  prompts?: string;
  semantic?: boolean;
  json?: boolean;
};

async function loadValid(dir: string): Promise<Extract<ParseResult, { ok: true }>> {
  const result = await loadConstitution(dir);
  if (!result.ok) {
    for (const issue of result.issues)
      console.error(
        formatIssue({
          ...issue,
          file: path.join(path.relative(process.cwd(), dir) || ".", issue.file),
        }),
      );
    throw new CliError(
      `${dir} is not a valid constitution (${result.issues.length} ${result.issues.length === 1 ? "problem" : "problems"}).`,
    );
  }
  return result;
}

/** An eval set from a standalone file (`--eval`): checked against the constitution it will run on. */
async function evalFile(file: string, dir: string): Promise<EvalSet> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new CliError(
      `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`,
    );
  }
  const { files } = await loadConstitution(dir);
  const result = parseConstitution([
    ...files.filter((f) => !f.path.startsWith("eval/")),
    { path: `eval/${path.basename(file)}`, text },
  ]);
  if (!result.ok) {
    for (const issue of result.issues)
      console.error(formatIssue(issue.file.startsWith("eval/") ? { ...issue, file } : issue));
    throw new CliError(`${file} is not a valid eval file for ${dir}.`);
  }
  return result.evals;
}

/** Prompts to replay: one per line, or JSON lines with a "prompt" field. */
async function promptsFile(file: string): Promise<string[]> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`Cannot read ${file}: ${error.code ?? String(error)}.`);
  });
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      if (!line.startsWith("{")) return line;
      const prompt = (JSON.parse(line) as { prompt?: unknown }).prompt;
      if (typeof prompt !== "string")
        throw new CliError(`${file}: a JSON line has no "prompt" string.`);
      return prompt;
    });
}

export function registerConstitutionEval(constitution: Command): void {
  constitution
    .command("eval")
    .description(
      "Run the constitution's eval set (eval/*.yaml) on the lexical path: recall, hit rate, false injections, traps, size, latency; exit 1 when a threshold is missed",
    )
    .option(
      "--dir <dir>",
      "constitution directory",
      path.relative(process.cwd(), SHIPPED_CONSTITUTION_DIR) || ".",
    )
    .option("--eval <file>", "use this eval file instead of the directory's eval/*.yaml")
    .option(
      "--against <dir>",
      "compare with this constitution directory (the base, e.g. main's): gained and lost hits, new false injections",
    )
    .option(
      "--prompts <file>",
      "with --against: also replay these prompts (one per line, or JSON lines with a prompt field)",
    )
    .option(
      "--semantic",
      "also run the hybrid path (needs CHARTER_EMBEDDING_MODEL and OPENAI_BASE_URL or OPENAI_API_KEY) and calibrate its similarity floor and ceiling on the set",
    )
    .option("--json", "print the report as JSON")
    .action(async (options: Options) => {
      if (options.prompts && !options.against)
        throw new CliError("--prompts needs --against: a replay compares two constitutions.", 2);
      const dir = path.resolve(options.dir ?? SHIPPED_CONSTITUTION_DIR);
      const draft = await loadValid(dir);
      const set = options.eval ? await evalFile(path.resolve(options.eval), dir) : draft.evals;
      if (set.cases.length === 0)
        throw new CliError(
          `${dir} has no eval cases: add eval/*.yaml (see docs/evals.md) or pass --eval <file>.`,
        );
      const store = new ConstitutionStore(draft.constitution);
      const report = await evalLexical(store, set);
      const learned = await crossValidate(draft.constitution, set, { index: store.index });
      const models = {
        domains: Object.keys(learned.model.domains).length,
        principles: Object.keys(learned.model.principles).length,
      };

      const semantic = options.semantic ? await semanticReport(draft.constitution, set) : undefined;

      let comparison: EvalComparison | undefined;
      let replay: ReplayImpact | undefined;
      if (options.against) {
        const base = new ConstitutionStore(
          (await loadValid(path.resolve(options.against))).constitution,
        );
        comparison = compareEvals(await evalLexical(base, set), report);
        if (options.prompts)
          replay = replayImpact(
            await promptsFile(path.resolve(options.prompts)),
            injectedIds(base),
            injectedIds(store),
          );
      }

      if (semantic?.edges.length)
        console.error(
          `warning: the calibrated floor and ceiling are on the edge of the grid tried (${semantic.edges.join("; ")}): a better point may lie beyond it.`,
        );
      if (options.json)
        console.log(
          JSON.stringify(
            {
              path: "lexical",
              dir,
              ...summary(report),
              learned: {
                folds: learned.folds,
                models,
                metrics: learned.report.metrics,
                failures: learned.report.failures,
              },
              semantic: semantic && {
                model: semantic.model,
                semantic_floor: semantic.semantic_floor,
                semantic_ceiling: semantic.semantic_ceiling,
                edges: semantic.edges,
                ...summary(semantic.report),
              },
              comparison,
              replay,
            },
            null,
            2,
          ),
        );
      else {
        console.log(
          formatReport(report, `${path.relative(process.cwd(), dir) || "."}, lexical path`),
        );
        console.log(`\n${formatCrossValidated(report, learned.report, learned.folds, models)}`);
        if (semantic)
          console.log(
            `\n${formatReport(semantic.report, `hybrid path, ${semantic.model}, calibrated: CHARTER_SEMANTIC_FLOOR=${semantic.semantic_floor} CHARTER_SEMANTIC_CEILING=${semantic.semantic_ceiling}`)}`,
          );
        if (comparison) console.log(`\n${formatComparison(comparison, options.against!)}`);
        if (replay) console.log(`\n${formatReplay(replay)}`);
      }
      if (!report.passed)
        throw new CliError(
          `missed ${report.thresholds
            .filter((t) => !t.ok)
            .map((t) => t.name)
            .join(", ")}`,
        );
    });
}

/**
 * The hybrid path on the eval set: the constitution's texts and the prompts embedded
 * through the configured endpoint (nothing stored), then the similarity floor and
 * ceiling that best meet the set's thresholds.
 */
async function semanticReport(constitution: Constitution, set: EvalSet) {
  const settings = embeddingSettings();
  if (!settings)
    throw new CliError(
      "--semantic needs CHARTER_EMBEDDING_MODEL and OPENAI_BASE_URL or OPENAI_API_KEY.",
      2,
    );
  const port = createEmbeddingClient({
    baseURL: settings.baseURL,
    apiKey: settings.apiKey,
    model: settings.model,
    timeoutMs: settings.timeoutMs,
  });
  const docs = semanticDocuments(constitution);
  const prompts = set.cases.map((c) => c.prompt);
  let vectors: number[][];
  try {
    vectors = await port.embed([...docs.map((d) => d.text), ...prompts]);
  } catch (error) {
    throw new CliError(
      `The embeddings endpoint failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const index = new SemanticIndex(
    settings.model,
    new Map(docs.map((d, i) => [d.key, vectors[i]!])),
  );
  const byPrompt = new Map(prompts.map((p, i) => [p, index.scores(vectors[docs.length + i]!)]));
  const [best] = await calibrateSemantic(constitution, set, (prompt) => byPrompt.get(prompt)!);
  return {
    model: settings.model,
    semantic_floor: best!.semantic_floor,
    semantic_ceiling: best!.semantic_ceiling,
    edges: best!.edges,
    report: best!.report,
  };
}

function summary(report: EvalReport) {
  return {
    passed: report.passed,
    metrics: report.metrics,
    thresholds: report.thresholds,
    failures: report.failures,
    cases: report.cases,
  };
}
