import { randomUUID } from "node:crypto";
import type { Constitution, LearnedModel, Retrieval } from "@/lib/constitution";
import type { LexicalIndex } from "@/lib/constitution/lexical";
import { pendingMigrations } from "@/lib/db/migration-state";
import { databaseTarget, envStoreConfig, retrievalPath, type Env } from "@/lib/env";
import { dataDirLockPath, lockHolder } from "@/lib/lock.mjs";
import { localMigrations } from "../environment";
import { CliError } from "../errors";

// `charter retrieve` without Prisma or PGlite, whose loading and start are most of a short
// command's time (an agent may call it per prompt). Also bundled on its own, with the engine
// and nothing that reaches a database driver, as dist/cli/retrieve-fast.cjs (cli/retrieve-fast.ts).

export type RetrieveOptions = { topK?: number; domain?: string[] };
export type Answer = Retrieval & { version: number };

/** While a live process holds the embedded database and its head file is gone (a save is being written), wait this long for it. */
export const HEAD_WAIT_MS = 2_000;
const HEAD_POLL_MS = 20;

/** Retrieves with the pure engine from a parsed version (the store's own modules: the engine's index loads the YAML parser too). */
export async function answerFrom(
  e: Env,
  prompt: string,
  options: RetrieveOptions,
  version: { id: number; constitution: Constitution; index: LexicalIndex; learned?: LearnedModel },
): Promise<Answer> {
  const [{ ConstitutionStore }, { ConflictingDefinitionError }] = await Promise.all([
    import("@/lib/constitution/store"),
    import("@/lib/constitution/overlay"),
  ]);
  const store = new ConstitutionStore(version.constitution, envStoreConfig(e), {
    index: version.index,
    learned: version.learned,
  });
  try {
    const result = await store.getRelevantPrinciples(prompt, {
      topK: options.topK,
      domain: options.domain?.length ? options.domain : null,
      requestId: randomUUID(),
    });
    return { ...result, version: version.id };
  } catch (error) {
    if (error instanceof ConflictingDefinitionError) throw new CliError(error.message);
    throw error;
  }
}

function isHeldByAnother(lock: string): boolean {
  const holder = lockHolder(lock);
  return holder !== null && holder !== process.pid;
}

/**
 * The embedded database, lexical retrieval: the version in force from the database's head
 * file (lib/files/head-file.ts), kept current by every save and fit, so PGlite is not opened.
 * While another process holds the database and the file is gone (its save is being written)
 * this waits up to HEAD_WAIT_MS for it. Null when the database must answer: no head file
 * (a new database, one no process has served since head files exist, a file that does not
 * read whole), a migration it lacks, or a version that no longer parses.
 */
export async function retrieveFromHeadFile(
  e: Env,
  prompt: string,
  options: RetrieveOptions,
): Promise<Answer | null> {
  const target = databaseTarget(e);
  if (target.kind !== "embedded" || retrievalPath(e) !== "lexical") return null;
  const [{ headFile }, { parsedSnapshots }, { lexicalIndexFor, parseStoredVersion }] =
    await Promise.all([
      import("@/lib/files/head-file"),
      import("@/lib/files/parsed-snapshots"),
      import("@/lib/db/version-parse"),
    ]);
  let head = headFile.read(target.dir);
  const lock = dataDirLockPath(target.dir);
  for (
    const until = Date.now() + HEAD_WAIT_MS;
    !head && Date.now() < until && isHeldByAnother(lock);
    head = headFile.read(target.dir)
  )
    await new Promise((resolve) => setTimeout(resolve, HEAD_POLL_MS)); // node:timers/promises costs a start-up more
  if (!head || pendingMigrations(localMigrations(), head.migrations).length > 0) return null;
  // The writer hashed the files it wrote, and the file's digest vouches for them: the hash names their parse.
  let parsed = parsedSnapshots.read(head.contentHash);
  if (!parsed) {
    const files = head.files();
    if (!files) return null;
    try {
      parsed = await parseStoredVersion(head.versionId, files);
    } catch {
      return null; // the database's path serves the last version that parses, and says why
    }
  }
  return answerFrom(e, prompt, options, {
    id: head.versionId,
    constitution: parsed.constitution,
    index: lexicalIndexFor(head.contentHash, parsed.constitution),
    learned: head.learned ?? undefined,
  });
}
