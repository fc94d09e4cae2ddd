import { createHash } from "node:crypto";
import { SemanticIndex, semanticDocuments, type EmbeddingPort } from "@/lib/constitution/semantic";
import type { Constitution, RequestContext, SemanticSimilarities } from "@/lib/constitution";
import { constitutionEmbeddings } from "@/lib/db/embeddings";
import { embeddingSettings } from "@/lib/env";
import { abandonLateRequests, createEmbeddingClient } from "@/lib/llm/embeddings";
import { log } from "@/lib/log";
import { callLog } from "./call-log";

/** The semantic step for one constitution version: its index, and the prompt's side (which throws when the endpoint fails). */
export type Semantic = {
  index: SemanticIndex;
  embedPrompt(prompt: string, ctx?: { requestId?: string }): Promise<number[]>;
  /** The prompt's similarities to each domain and principle: the store's SemanticPort. */
  similarities(prompt: string, ctx?: RequestContext): Promise<SemanticSimilarities>;
  /** Many texts' similarities at once, in batches with the long timeout (evals, not an agent's path). */
  similaritiesOfMany(texts: string[]): Promise<SemanticSimilarities[]>;
};

export type SemanticAvailability = Semantic | { unavailable: string } | null;

/** After a failed build, calls within this long answer `unavailable` at once instead of waiting on the endpoint again. */
export const SEMANTIC_RETRY_MS = 30_000;

/** Indexes kept per process: the version in force, and a few others (previews, evals). */
const MAX_CACHED = 4;

type Entry = {
  built: Promise<Semantic | { unavailable: string }>;
  settled: boolean;
  /** Resolved once the build finds texts with no stored vector: it waits on the endpoint from then on. */
  embedding: Promise<void>;
  failedAt?: number;
};
const globalCache = globalThis as unknown as { __charterSemantic?: Map<string, Entry> };

function cache(): Map<string, Entry> {
  globalCache.__charterSemantic ??= new Map();
  return globalCache.__charterSemantic;
}

const textHash = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Embeds the texts with no stored vector (each distinct text once), and stores them only once
 * they form a valid index. `onEmbedding` is called before the endpoint is asked, if it is.
 */
async function build(
  constitution: Constitution,
  port: EmbeddingPort,
  promptPort: EmbeddingPort,
  onEmbedding: () => void,
): Promise<Semantic> {
  const docs = semanticDocuments(constitution).map((d) => ({ ...d, hash: textHash(d.text) }));
  const vectors = await constitutionEmbeddings.get(
    port.model,
    docs.map((d) => d.hash),
  );
  const missing = new Map(docs.filter((d) => !vectors.has(d.hash)).map((d) => [d.hash, d.text]));
  if (missing.size > 0) onEmbedding();
  const fresh = missing.size === 0 ? [] : await port.embed([...missing.values()]);
  const rows = [...missing.keys()].map((textHash, i) => ({ textHash, vector: fresh[i]! }));
  for (const row of rows) vectors.set(row.textHash, row.vector);
  // Built before storing: vectors of another dimension than the stored ones are refused, not stored.
  const index = new SemanticIndex(
    port.model,
    new Map(docs.map((d) => [d.key, vectors.get(d.hash)!])),
  );
  await constitutionEmbeddings.putMany(port.model, rows);

  const embedPrompt = async (prompt: string, ctx?: { requestId?: string }) =>
    (await promptPort.embed([prompt], ctx))[0]!;
  return {
    index,
    embedPrompt,
    similarities: async (prompt, ctx) => index.scores(await embedPrompt(prompt, ctx)),
    similaritiesOfMany: async (texts) =>
      (texts.length ? await port.embed(texts) : []).map((v) => index.scores(v)),
  };
}

/**
 * The semantic step for a constitution version: null when no embedding model is
 * configured; otherwise its index, built once per (version, model) and cached, from
 * stored vectors where the text is unchanged and new ones for the rest. When the
 * endpoint fails the answer is `{ unavailable }`: retrieval goes on lexically, and a
 * call after SEMANTIC_RETRY_MS tries again. Never throws. Unless `wait` is set, a
 * version whose texts are still being embedded answers `{ unavailable }` at once: an
 * agent's prompt never waits for the constitution to be embedded. It does wait for the
 * stored vectors to be read, so a version whose texts are all stored (a new process, a
 * `charter retrieve`) is semantic from its first prompt.
 */
export async function semanticFor(
  version: { id: number; constitution: Constitution },
  options: { wait?: boolean } = {},
): Promise<SemanticAvailability> {
  const settings = embeddingSettings();
  if (!settings) return Promise.resolve(null);
  const key = `${version.id}\n${settings.model}`;
  const entries = cache();
  const entry = entries.get(key);
  if (entry && (entry.failedAt === undefined || Date.now() - entry.failedAt < SEMANTIC_RETRY_MS))
    return settledOrWarming(entry, options.wait);

  const endpoint = {
    baseURL: settings.baseURL,
    apiKey: settings.apiKey,
    model: settings.model,
    log: callLog(),
  };
  const port = createEmbeddingClient({ ...endpoint, timeoutMs: settings.timeoutMs });
  // A prompt's embedding is on the agent's path: a short timeout and no retry, then the lexical
  // path. The request itself may finish within the long timeout, in the background, so that a
  // slow endpoint under load does not cost every next prompt a new connection.
  const promptPort = createEmbeddingClient({
    ...endpoint,
    timeoutMs: settings.promptTimeoutMs,
    backgroundMs: settings.timeoutMs,
    maxRetries: 0,
  });
  let onEmbedding = () => {};
  const embedding = new Promise<void>((resolve) => (onEmbedding = resolve));
  const fresh: Entry = {
    settled: false,
    embedding,
    built: build(version.constitution, port, promptPort, onEmbedding).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      log.warn(
        `embeddings of constitution version ${version.id} (${settings.model}) are unavailable, retrying after ${SEMANTIC_RETRY_MS / 1000} s: ${reason}`,
      );
      fresh.failedAt = Date.now();
      return { unavailable: reason };
    }),
  };
  void fresh.built.then(() => (fresh.settled = true));
  entries.delete(key);
  entries.set(key, fresh);
  for (const oldest of entries.keys()) {
    if (entries.size <= MAX_CACHED) break;
    entries.delete(oldest);
  }
  return settledOrWarming(fresh, options.wait);
}

/** Why a retrieval is lexical while its version's texts are embedded. */
export const STILL_EMBEDDING =
  "the constitution's texts are still being embedded; lexical until they are";

/** The built index; unless `wait`, `{ unavailable }` as soon as the build has to ask the endpoint. */
function settledOrWarming(entry: Entry, wait = false): Promise<SemanticAvailability> {
  if (wait || entry.settled) return entry.built;
  return Promise.race([
    entry.built,
    entry.embedding.then(() => ({ unavailable: STILL_EMBEDDING })),
  ]);
}

/** Forgets every cached index (tests; the stored vectors stay). */
export function forgetSemantic(): void {
  cache().clear();
}

/** Ends the prompts' embedding requests still finishing in the background: a command that has answered exits at once. */
export function abandonLateEmbeddings(): void {
  abandonLateRequests();
}
