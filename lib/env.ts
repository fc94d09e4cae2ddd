import path from "node:path";
// Relative, and only pure modules: next.config.ts loads this file without the `@/` alias.
import type { ApiKeyScope } from "./auth/roles";
import type { ConstitutionStoreConfigInput } from "./constitution";
import { envSchema, INIT_API_KEY_DEFAULT_NAME, type Env } from "./env-schema";

/**
 * The one reader of process.env: it validates the variables once against envSchema
 * (lib/env-schema.ts: every setting Charter understands, documented), and everything else
 * asks `env()` or the accessors below.
 */

export { envSchema, INIT_API_KEY_DEFAULT_NAME, type Env };

/** Raised when the environment is invalid; its message has one line per bad variable. */
export class EnvError extends Error {
  constructor(readonly problems: { variable: string; reason: string }[]) {
    super(problems.map((p) => `${p.variable}: ${p.reason}`).join("\n"));
    this.name = "EnvError";
  }
}

/** Validates a set of variables; throws EnvError naming every bad one. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (result.success) {
    const problem = pathProblem(result.data) ?? initProblem(result.data);
    if (problem) throw new EnvError([problem]);
    return result.data;
  }
  throw new EnvError(
    result.error.issues.map((issue) => ({
      variable: String(issue.path[0] ?? "environment"),
      reason: issue.message,
    })),
  );
}

let cached: Env | undefined;

/** The validated environment of this process, parsed once. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Forget the parsed environment (for the CLI after it sets defaults, and for tests). */
export function resetEnv(): void {
  cached = undefined;
}

export type DatabaseTarget = { kind: "postgres"; url: string } | { kind: "embedded"; dir: string };

/** Which database this process uses: PostgreSQL when DATABASE_URL is set, else embedded PGlite. */
export function databaseTarget(e: Env = env()): DatabaseTarget {
  if (e.DATABASE_URL) return { kind: "postgres", url: e.DATABASE_URL };
  return { kind: "embedded", dir: path.resolve(e.CHARTER_DATA_DIR, "pglite") };
}

/** The OpenAI-compatible endpoint, when one is configured (a key, a base URL, or both). */
export function llmSettings(
  e: Env = env(),
): { baseURL?: string; apiKey: string; model: string; timeoutMs: number } | null {
  if (!e.OPENAI_API_KEY && !e.OPENAI_BASE_URL) return null;
  // Local OpenAI-compatible servers often need no key; the SDK still wants a string.
  return {
    baseURL: e.OPENAI_BASE_URL,
    apiKey: e.OPENAI_API_KEY ?? "not-needed",
    model: e.CHARTER_LLM_MODEL,
    timeoutMs: e.CHARTER_LLM_TIMEOUT_MS,
  };
}

/** The embedding model on the LLM's endpoint, when both are configured: the semantic step of retrieval is optional. */
export function embeddingSettings(e: Env = env()): {
  baseURL?: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  promptTimeoutMs: number;
} | null {
  const llm = llmSettings(e);
  if (!llm || !e.CHARTER_EMBEDDING_MODEL) return null;
  return {
    ...llm,
    model: e.CHARTER_EMBEDDING_MODEL,
    promptTimeoutMs: e.CHARTER_EMBEDDING_TIMEOUT_MS,
  };
}

/** The dashboard's base URL (sign-in links are built on it). */
export function baseUrl(e: Env = env()): string {
  return (e.BETTER_AUTH_URL ?? "http://127.0.0.1:3000").replace(/\/+$/, "");
}

/** The retrieval path in force: CHARTER_RETRIEVAL_PATH (checked by parseEnv), or the best the configured endpoint allows. */
export function retrievalPath(e: Env = env()): "lexical" | "hybrid" | "llm" {
  return (
    e.CHARTER_RETRIEVAL_PATH ??
    (embeddingSettings(e) ? "hybrid" : llmSettings(e) ? "llm" : "lexical")
  );
}

/** The retrieval settings the environment gives (budget, semantic calibration): the server, evals, previews and the CLI use the same. */
export function envStoreConfig(e: Env = env()): ConstitutionStoreConfigInput {
  return {
    context_budget_chars: e.CHARTER_CONTEXT_BUDGET_CHARS,
    semantic_floor: e.CHARTER_SEMANTIC_FLOOR,
    semantic_ceiling: e.CHARTER_SEMANTIC_CEILING,
  };
}

/** A retrieval path that its settings cannot serve, as a problem to report. */
function pathProblem(e: Env): { variable: string; reason: string } | null {
  if (e.CHARTER_RETRIEVAL_PATH === "hybrid" && !embeddingSettings(e))
    return {
      variable: "CHARTER_RETRIEVAL_PATH",
      reason: "hybrid needs CHARTER_EMBEDDING_MODEL and OPENAI_BASE_URL or OPENAI_API_KEY",
    };
  if (e.CHARTER_RETRIEVAL_PATH === "llm" && !llmSettings(e))
    return {
      variable: "CHARTER_RETRIEVAL_PATH",
      reason: "llm needs OPENAI_BASE_URL or OPENAI_API_KEY",
    };
  if (e.CHARTER_SEMANTIC_CEILING <= e.CHARTER_SEMANTIC_FLOOR)
    return {
      variable: "CHARTER_SEMANTIC_CEILING",
      reason: "must be greater than CHARTER_SEMANTIC_FLOOR",
    };
  return null;
}

/** What CHARTER_INIT_API_KEY_* ask for at a first start, with defaults filled in; null when no key is given. */
export function initApiKey(
  e: Env = env(),
): { secret: string; name: string; scopes: ApiKeyScope[] } | null {
  if (!e.CHARTER_INIT_API_KEY) return null;
  return {
    secret: e.CHARTER_INIT_API_KEY,
    name: e.CHARTER_INIT_API_KEY_NAME ?? INIT_API_KEY_DEFAULT_NAME,
    scopes: e.CHARTER_INIT_API_KEY_SCOPE ?? ["ingest"],
  };
}

/** A name or scope for a key that is not given, as a problem to report. */
function initProblem(e: Env): { variable: string; reason: string } | null {
  if (e.CHARTER_INIT_API_KEY) return null;
  const orphan =
    e.CHARTER_INIT_API_KEY_NAME !== undefined
      ? "CHARTER_INIT_API_KEY_NAME"
      : e.CHARTER_INIT_API_KEY_SCOPE !== undefined
        ? "CHARTER_INIT_API_KEY_SCOPE"
        : null;
  return orphan ? { variable: orphan, reason: "is set but CHARTER_INIT_API_KEY is not" } : null;
}
