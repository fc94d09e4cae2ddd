import { randomUUID } from "node:crypto";
import type { Command } from "commander";
import type { Retrieval, Why } from "@/lib/constitution";
import { databaseTarget, envStoreConfig, retrievalPath } from "@/lib/env";
import { CliError } from "../errors";
import { localMigrations, prepareEnv, withDatabase } from "../runtime";

type Options = { topK?: number; domain?: string[] };

function parseTopK(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw new CliError(`--top-k must be a whole number from 1 to 100 (got "${value}").`, 2);
  return n;
}

/** Why a principle was chosen, in a few words: "matched tabl, column; via coding (0.91)". */
function whyText(why: Why): string {
  const matched = [...why.matched_phrases.map((p) => `"${p}"`), ...why.matched_terms].join(", ");
  const via =
    why.via === "domain"
      ? `; via ${why.domain} (${why.domain_confidence?.toFixed(2)})`
      : why.via === "llm"
        ? "; chosen by the LLM"
        : "";
  return `${matched ? `matched ${matched}` : "no words matched"}${via}`;
}

/**
 * The short path, for the common case: PostgreSQL, lexical retrieval, a migrated database
 * holding a constitution. It reads the version in force over one plain connection and
 * retrieves with the pure engine, without loading Prisma, whose client is most of a short
 * command's start-up (an agent may call `charter retrieve` per prompt). Null when the full
 * path must answer: the embedded database, an LLM or embedding path, a pending migration,
 * no constitution yet, a stored version that no longer parses, or any read failure (the
 * full path then reports it properly).
 */
async function retrieveShort(
  prompt: string,
  options: Options,
): Promise<(Retrieval & { version: number }) | null> {
  const e = prepareEnv();
  const target = databaseTarget(e);
  if (target.kind !== "postgres" || retrievalPath(e) !== "lexical") return null;
  const [{ readCurrentVersion }, { lexicalIndexFor }] = await Promise.all([
    import("@/lib/db/head-reader"),
    import("@/lib/db/version-parse"),
  ]);
  const current = await readCurrentVersion(target.url, localMigrations());
  if (!current) return null;
  // The store's own modules, not the engine's index: that one loads the YAML parser too.
  const [{ ConstitutionStore }, { ConflictingDefinitionError }] = await Promise.all([
    import("@/lib/constitution/store"),
    import("@/lib/constitution/overlay"),
  ]);
  const { constitution } = current.parsed;
  const store = new ConstitutionStore(constitution, envStoreConfig(e), {
    index: lexicalIndexFor(current.cacheKey, constitution),
  });
  try {
    const result = await store.getRelevantPrinciples(prompt, {
      topK: options.topK,
      domain: options.domain?.length ? options.domain : null,
      requestId: randomUUID(),
    });
    return { ...result, version: current.id };
  } catch (error) {
    if (error instanceof ConflictingDefinitionError) throw new CliError(error.message);
    throw error;
  }
}

/** The full path: the server's own service, which also imports the shipped constitution into a new database. */
async function retrieveFull(
  prompt: string,
  options: Options,
): Promise<Retrieval & { version: number }> {
  return withDatabase(async () => {
    const { ensureConstitution, retrieve } = await import("@/lib/services/constitution");
    await ensureConstitution();
    return retrieve(prompt, {
      topK: options.topK,
      domain: options.domain?.length ? options.domain : null,
    });
  });
}

export function registerRetrieve(program: Command): void {
  program
    .command("retrieve <prompt>")
    .description(
      "Find the domains and principles that apply to a prompt under the current constitution",
    )
    .option("--top-k <n>", "how many principles", parseTopK)
    .option(
      "--domain <domains>",
      "skip domain detection and use these domains (separated by commas); one with no overlay falls back to core, with a warning",
    )
    .option("--json", "print {domains, principles, debug} as JSON")
    .action(async (prompt: string, options: { topK?: number; domain?: string; json?: boolean }) => {
      if (!prompt.trim()) throw new CliError("The prompt is empty.");
      const domain = (options.domain ?? "")
        .split(",")
        .map((d) => d.trim())
        .filter(Boolean);
      const result =
        (await retrieveShort(prompt, { topK: options.topK, domain })) ??
        (await retrieveFull(prompt, { topK: options.topK, domain }));
      for (const w of result.debug.warnings) console.error(`warning: ${w}`);
      const principles = result.principles.map((p) => ({
        id: p.id,
        title: p.title,
        level: p.level,
        priority: p.priority,
        confidence: p.confidence,
        why: p.why,
      }));
      if (options.json) {
        console.log(
          JSON.stringify({ domains: result.domains, principles, debug: result.debug }, null, 2),
        );
        return;
      }
      console.log(
        `domains: ${result.domains.map((d) => `${d.domain} (${d.confidence.toFixed(2)})`).join(", ") || "none"}`,
      );
      for (const p of principles)
        console.log(
          `  ${p.level.padEnd(4)} ${String(p.priority).padStart(3)}  ${p.confidence.toFixed(2)}  ${p.id.padEnd(22)} ${p.title}  (${whyText(p.why)})`,
        );
      console.log(
        `(${result.debug.path} path, version ${result.version}, ${result.debug.timings_ms.total} ms)`,
      );
    });
}
