import { isIP } from "node:net";
import { z } from "zod";
// Relative, and only a pure module: next.config.ts loads lib/env.ts, and so this file, without the `@/` alias.
import { API_KEY_NAME_MAX_LENGTH, API_KEY_SCOPES } from "./auth/roles";

/**
 * Every setting Charter understands, declared, validated and documented (the descriptions
 * feed the README's Environment table). lib/env.ts reads process.env against it.
 */
const postgresUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === "postgresql:" || url.protocol === "postgres:") && url.hostname !== ""
      );
    } catch {
      return false;
    }
  }, "must be a postgresql://user@host:port/database URL");

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

/** The server's heap cap in MB unless CHARTER_SERVER_HEAP_MB says otherwise (measured: docs/deployment.md). */
export const SERVER_HEAP_MB_DEFAULT = 384;

/** The name CHARTER_INIT_API_KEY is stored under when CHARTER_INIT_API_KEY_NAME is unset. */
export const INIT_API_KEY_DEFAULT_NAME = "init";

/** "ingest", "read" or "ingest,read": the scopes of a key given in the environment. */
const scopeList = optionalText.pipe(
  z
    .string()
    .transform((value) => [...new Set(value.split(",").map((scope) => scope.trim()))])
    .pipe(
      z.array(
        z.enum(API_KEY_SCOPES, {
          error: `must be ${API_KEY_SCOPES.join(", ")} or a comma-separated list of them`,
        }),
      ),
    )
    .optional(),
);

/** "10.0.0.5", "::1" or "10.0.0.0/24": an address, or a range with a prefix length that fits it. */
function isAddressOrRange(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** A PostgreSQL URL that may be unset; blank counts as unset. */
const optionalPostgresUrl = () =>
  z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined))
    .pipe(postgresUrl.optional());

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: optionalPostgresUrl().describe(
    "PostgreSQL server to use. Unset: the embedded PGlite database in CHARTER_DATA_DIR.",
  ),
  CHARTER_MIGRATE_DATABASE_URL: optionalPostgresUrl().describe(
    "PostgreSQL connection of the tables' owner, for migrations and `charter db grant-app-role`; DATABASE_URL is then the app's role, with only INSERT and SELECT on audit_log (docs/security.md). Unset: DATABASE_URL does both.",
  ),
  CHARTER_DATA_DIR: z
    .string()
    .trim()
    .min(1)
    .default(".charter")
    .describe("Where the embedded database and the generated secret live."),
  CHARTER_NEXT_DIST_DIR: z
    .string()
    .trim()
    .min(1)
    .default(".next")
    .describe(
      "Where Next.js builds, relative to the repository: a second build or dev server beside the usual one can have its own (Next adds it to tsconfig.json's include list; do not commit that).",
    ),
  CHARTER_BUILD_TYPECHECKED: z
    .enum(["0", "1"])
    .default("0")
    .describe(
      "1: `next build` skips its own TypeScript check, because the caller ran `tsc --noEmit` on the same tree (npm test does; the check costs the build about 45 s).",
    ),
  XDG_CACHE_HOME: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe(
      "Where the CLI keeps parsed constitution versions (under charter/). Unset: ~/.cache.",
    ),
  BETTER_AUTH_SECRET: z
    .string()
    .min(32, "must be at least 32 characters")
    .optional()
    .describe(
      "Signs session cookies. `charter serve` generates one into CHARTER_DATA_DIR when unset.",
    ),
  BETTER_AUTH_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL such as http://127.0.0.1:3000" })
    .optional()
    .describe("The dashboard's public base URL: sign-in links and the Origin check use it."),
  CHARTER_SELF_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      "Set by `charter serve`: where the server reaches itself to load its routes before it reports healthy.",
    ),
  CHARTER_ADMIN_EMAIL: z
    .email({ error: "must be an e-mail address" })
    .default("admin@charter.local")
    .describe("E-mail of the first admin, created on a fresh database."),
  OPENAI_API_KEY: optionalText.describe(
    "Key for an OpenAI-compatible endpoint; unset, the lexical paths are used.",
  ),
  OPENAI_BASE_URL: optionalText
    .pipe(z.url().optional())
    .describe("Base URL of an OpenAI-compatible endpoint."),
  CHARTER_LLM_MODEL: z
    .string()
    .trim()
    .min(1)
    .default("gpt-4o-mini")
    .describe("Model for the retrieval prefilter and domain agents."),
  CHARTER_PGLITE_LOCK_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(600_000)
    .optional()
    .describe(
      "How long a migration waits for another process to let the embedded database go; unset, 15000. The schema-engine stand-in reads it too.",
    ),
  CHARTER_LLM_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(300_000)
    .default(15_000)
    .describe("Each LLM call is abandoned after this long."),
  CHARTER_EMBEDDING_MODEL: optionalText.describe(
    "Embedding model on the same endpoint; set, retrieval adds the semantic step (embeddings of the constitution are computed once and stored).",
  ),
  CHARTER_RETRIEVAL_PATH: z
    .enum(["lexical", "hybrid", "llm"])
    .optional()
    .describe(
      "Retrieval path. Unset: hybrid when CHARTER_EMBEDDING_MODEL is set, llm when only an endpoint is, else lexical.",
    ),
  CHARTER_CONTEXT_BUDGET_CHARS: z.coerce
    .number()
    .int()
    .min(200)
    .max(100_000)
    .default(2400)
    .describe(
      "Characters of principles injected per prompt; the least relevant soft principles are dropped first, never a hard one.",
    ),
  CHARTER_EMBEDDING_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(50)
    .max(60_000)
    .default(600)
    .describe(
      "Hybrid path: embedding a prompt is abandoned after this long and the lexical result is used (the agent waits for it).",
    ),
  CHARTER_SEMANTIC_FLOOR: z.coerce
    .number()
    .min(-1)
    .max(1)
    .default(0.3)
    .describe(
      "Hybrid path: cosine similarity that counts as no evidence (calibrate with `charter constitution eval --semantic`).",
    ),
  CHARTER_SEMANTIC_CEILING: z.coerce
    .number()
    .min(-1)
    .max(1)
    .default(0.6)
    .describe("Hybrid path: cosine similarity that counts as full evidence."),
  CHARTER_CONSTITUTION_MAX_PARALLEL_AGENTS: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(32, "must be at most 32")
    .default(2)
    .describe("How many domain agents run at once."),
  CHARTER_PLAYBOOK_INJECT: z.coerce
    .number()
    .int()
    .min(0)
    .max(100)
    .default(10)
    .describe(
      "How many of the most trusted key points the UserPromptSubmit hook adds after the principles.",
    ),
  CHARTER_SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(10_080)
    .default(120)
    .describe(
      "Minutes without an event after which an open session is ended as idle and credited (Codex CLI sends no session end); 0 never ends one.",
    ),
  CHARTER_REFLECT_ON_SESSION_END: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1")
    .describe("Run the playbook reflector when a session ends (needs an LLM endpoint)."),
  CHARTER_INIT_API_KEY: optionalText
    .pipe(
      z
        .string()
        .min(32, "must be at least 32 characters")
        .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces")
        .optional(),
    )
    .describe(
      "First start, headless: an API key to store (hashed, owned by the first admin) when no key has this secret; a key revoked since stays revoked.",
    ),
  CHARTER_INIT_API_KEY_NAME: optionalText
    .pipe(
      z
        .string()
        .max(API_KEY_NAME_MAX_LENGTH, `must be at most ${API_KEY_NAME_MAX_LENGTH} characters`)
        .optional(),
    )
    .describe(`Name of CHARTER_INIT_API_KEY (default "${INIT_API_KEY_DEFAULT_NAME}").`),
  CHARTER_INIT_API_KEY_SCOPE: scopeList.describe(
    "Scopes of CHARTER_INIT_API_KEY: ingest (default), read, or ingest,read.",
  ),
  CHARTER_TRUSTED_PROXIES: optionalText
    .pipe(
      z
        .string()
        .transform((value) =>
          value
            .split(",")
            .map((entry) => entry.trim())
            .filter((entry) => entry !== ""),
        )
        .pipe(
          z.array(
            z
              .string()
              .refine(
                isAddressOrRange,
                "must list IP addresses or CIDR ranges (such as 10.0.0.5 or 10.0.0.0/24), separated by commas",
              ),
          ),
        )
        .optional(),
    )
    .describe(
      "Reverse proxies (IPs or CIDR ranges, comma-separated) whose X-Forwarded-For is believed; unset, sign-in rate limits key on the connecting address.",
    ),
  CHARTER_DRAIN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(600_000)
    .default(25_000)
    .describe(
      "On SIGTERM or SIGINT the server answers /api/health 503 draining, lets requests in flight finish and writes what it buffered, then exits; this bounds that, in ms (keep it under your orchestrator's kill timeout, 30 s in Kubernetes).",
    ),
  CHARTER_SERVER_HEAP_MB: z.coerce
    .number()
    .int()
    .min(0)
    .max(65_536)
    .default(SERVER_HEAP_MB_DEFAULT)
    .describe(
      `The server's V8 heap cap in MB, which \`charter serve\` gives the Next.js process as --max-old-space-size (default ${SERVER_HEAP_MB_DEFAULT}, measured in docs/deployment.md); 0 leaves Node's own limit. A --max-old-space-size in NODE_OPTIONS wins.`,
    ),
  NODE_OPTIONS: optionalText.describe(
    "Node.js options; `charter serve` passes them to the server process, adding CHARTER_SERVER_HEAP_MB's cap unless they set --max-old-space-size themselves.",
  ),
});

export type Env = z.infer<typeof envSchema>;
