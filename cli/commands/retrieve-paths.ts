import type { Env } from "@/lib/env";
import { databaseTarget, retrievalPath } from "@/lib/env";
import { localMigrations, prepareEnv, withDatabase } from "../runtime";
import {
  answerFrom,
  retrieveFromHeadFile,
  type Answer,
  type RetrieveOptions,
} from "./retrieve-head";

// The ways `charter retrieve` finds its answer, fastest first; each gives way to the next
// when it cannot settle the answer, and the last one, the server's own service, reports
// what went wrong.

/**
 * PostgreSQL, lexical retrieval, a migrated database holding a constitution: the version in
 * force read over one plain connection (lib/db/head-reader.ts), without Prisma. Null when
 * the service must answer: a pending migration, no constitution yet, a stored version that
 * no longer parses, or any read failure.
 */
async function retrieveFromPostgres(
  e: Env,
  prompt: string,
  options: RetrieveOptions,
): Promise<Answer | null> {
  const target = databaseTarget(e);
  if (target.kind !== "postgres" || retrievalPath(e) !== "lexical") return null;
  const [{ readCurrentVersion }, { lexicalIndexFor }] = await Promise.all([
    import("@/lib/db/head-reader"),
    import("@/lib/db/version-parse"),
  ]);
  const current = await readCurrentVersion(target.url, localMigrations());
  if (!current) return null;
  const { constitution } = current.parsed;
  return answerFrom(e, prompt, options, {
    id: current.id,
    constitution,
    index: lexicalIndexFor(current.cacheKey, constitution),
    learned: current.learned,
  });
}

/** The server's own service, which also migrates and imports the shipped constitution into a new database. */
async function retrieveFromService(prompt: string, options: RetrieveOptions): Promise<Answer> {
  return withDatabase(async () => {
    const [{ ensureConstitution, retrieve }, { abandonLateEmbeddings }] = await Promise.all([
      import("@/lib/services/constitution"),
      import("@/lib/services/embeddings"),
    ]);
    await ensureConstitution();
    try {
      return await retrieve(prompt, {
        topK: options.topK,
        domain: options.domain?.length ? options.domain : null,
      });
    } finally {
      // The answer is lexical once the prompt's embedding timed out: the command does not wait for it.
      abandonLateEmbeddings();
    }
  });
}

/** The answer from the first path that can give it. */
export async function retrieveAnswer(prompt: string, options: RetrieveOptions): Promise<Answer> {
  const e = prepareEnv();
  return (
    (await retrieveFromPostgres(e, prompt, options)) ??
    (await retrieveFromHeadFile(e, prompt, options)) ??
    (await retrieveFromService(prompt, options))
  );
}
