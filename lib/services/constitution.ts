import { randomUUID } from "node:crypto";
import {
  ConflictingDefinitionError,
  ConstitutionStore,
  type LearnedModel,
  type Retrieval,
  type SemanticPort,
} from "@/lib/constitution";
import { changeBus } from "@/lib/db/change-bus";
import { constitutionVersions, type Version, type VersionMeta } from "@/lib/db/constitution";
import { headFileWrites } from "@/lib/db/head-file-writes";
import { orchestrationLog } from "@/lib/db/orchestration-log";
import { embeddingSettings, env, envStoreConfig, llmSettings, retrievalPath } from "@/lib/env";
import { readConstitutionFiles, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { createLlmClient } from "@/lib/llm/client";
import { log } from "@/lib/log";
import { UnavailableError, ValidationError } from "@/lib/errors";
import { callLog } from "./call-log";
import { semanticFor } from "./embeddings";
import { learnedFor } from "./learned";

export { callLog };

type Cached = { versionId: number; learned: LearnedModel | undefined; store: ConstitutionStore };
const globalStore = globalThis as unknown as { __charterStore?: Cached };

/** On a database with no constitution, imports the shipped `constitution/` directory as version 1. */
export async function ensureConstitution(): Promise<void> {
  const files = await readConstitutionFiles(SHIPPED_CONSTITUTION_DIR);
  const imported = await constitutionVersions.importIfEmpty(
    files,
    "Imported the shipped constitution",
  );
  if (imported) log.info(`imported the shipped constitution as version ${imported.id}`);
}

/**
 * The semantic step for a version, asked on each retrieval: a version whose embeddings
 * could not be computed yet is retried later, not left lexical for good.
 */
function semanticPort(version: Parameters<typeof semanticFor>[0]): SemanticPort {
  return {
    async similarities(prompt, ctx) {
      const semantic = await semanticFor(version);
      if (!semantic) throw new Error("the semantic step is not configured");
      if ("unavailable" in semantic) throw new Error(semantic.unavailable);
      return semantic.similarities(prompt, ctx);
    },
  };
}

/**
 * The store for the constitution version in force, rebuilt only when the version
 * changes, on the path CHARTER_RETRIEVAL_PATH chooses (lexical, hybrid or llm). Once a
 * process has a store, an announced save builds the next one at once, in the background
 * (on every instance), so that the first prompt after a save finds its index built.
 */
export async function currentStore(): Promise<{ store: ConstitutionStore; version: VersionMeta }> {
  const version = await constitutionVersions.current();
  if (!version)
    throw new UnavailableError(
      "No constitution is loaded yet: start the server once, or run `charter constitution import`.",
    );
  const learned = await learnedFor(version.id);
  // Built synchronously: two requests that find the version (or its fit) changed cannot both build it.
  let kept = globalStore.__charterStore;
  if (kept?.versionId !== version.id || kept.learned !== learned)
    globalStore.__charterStore = kept = {
      versionId: version.id,
      learned,
      store: buildStore(version, learned, kept?.versionId === version.id ? kept.store : undefined),
    };
  rebuildOnChange();
  // On the embedded database, `charter retrieve` answers from the head file: written here on a first read.
  await headFileWrites.ensure();
  return { store: kept.store, version };
}

/** The version whose store (and search index) this process has built, or null: what the next prompt finds ready. */
export function builtStoreVersion(): number | null {
  return globalStore.__charterStore?.versionId ?? null;
}

/** A version's store; `same` (the version's store without its fit) lends its built index. */
function buildStore(
  version: Version,
  learned: LearnedModel | undefined,
  same?: ConstitutionStore,
): ConstitutionStore {
  const e = env();
  const path = retrievalPath(e);
  const llm = path === "llm" ? llmSettings(e) : null;
  return new ConstitutionStore(
    version.constitution,
    {
      use_llm_matching: llm !== null,
      max_parallel_agents: e.CHARTER_CONSTITUTION_MAX_PARALLEL_AGENTS,
      prefilter_model: e.CHARTER_LLM_MODEL,
      agent_model: e.CHARTER_LLM_MODEL,
      llm_timeout_ms: e.CHARTER_LLM_TIMEOUT_MS,
      ...envStoreConfig(e),
    },
    {
      llm: llm
        ? createLlmClient({ baseURL: llm.baseURL, apiKey: llm.apiKey, log: callLog() })
        : undefined,
      semantic: path === "hybrid" && embeddingSettings(e) ? semanticPort(version) : undefined,
      onEvent: (event) => orchestrationLog().record(event),
      index: same?.index,
      learned,
    },
  );
}

const rebuild = globalThis as unknown as { __charterStoreRebuild?: boolean };

/**
 * Subscribes once per process that retrieves: an announced constitution change builds the
 * head's store in the background. (After a lost listener nothing is built ahead: the next
 * prompt reads the head and builds what changed.)
 */
function rebuildOnChange(): void {
  if (rebuild.__charterStoreRebuild) return;
  rebuild.__charterStoreRebuild = true;
  changeBus.subscribe((change) => {
    if (change?.topic !== "constitution" && change?.topic !== "constitution_model") return;
    // After the writer's commit has returned to it: the build never delays the save's answer.
    setImmediate(() => {
      currentStore().catch((error: unknown) =>
        log.warn(
          `could not build the new constitution's index ahead of the next prompt: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    });
  });
}

/**
 * Retrieves the principles for a prompt under the current constitution. A chosen
 * `domain` (one, or several) with no overlay falls back to core, with a warning in
 * `debug.warnings`; chosen domains that define one principle differently are refused.
 */
export async function retrieve(
  prompt: string,
  options: { topK?: number; domain?: string | readonly string[] | null; requestId?: string } = {},
): Promise<Retrieval & { version: number }> {
  const { store, version } = await currentStore();
  try {
    const result = await store.getRelevantPrinciples(prompt, {
      topK: options.topK,
      domain: options.domain,
      requestId: options.requestId ?? randomUUID(),
    });
    return { ...result, version: version.id };
  } catch (error) {
    if (error instanceof ConflictingDefinitionError)
      throw new ValidationError(error.message, [{ path: "domain", message: error.message }]);
    throw error;
  }
}
