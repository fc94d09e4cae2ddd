import { isEmptyModel } from "@/lib/constitution/learn";
import { headFile, type HeadEntry } from "@/lib/files/head-file";
import { constitutionFilesSchema, learnedModelSchema } from "@/lib/schemas/constitution-rows";
import { changeBus } from "./change-bus";
import { db, dbTarget } from "./client";
import { HEAD_ID } from "./constitution-rows";
import { parseColumn } from "./json-column";
import { APPLIED_MIGRATIONS_SQL } from "./migration-state";
import { contentHash } from "./version-parse";

/**
 * Keeps the embedded database's head file (lib/files/head-file.ts) current. Only one process
 * opens a PGlite directory at a time, so every write that changes what the head serves (a
 * save, a fit) runs in this process, through `changing`: the file is removed before the
 * write and written from the database after it, so a crash or a failure in between leaves
 * no file (a reader goes to the database), never an older version. A process that serves the
 * head writes it on its first read (`ensure`), so a database saved to before head files
 * existed gets one. Nothing is kept for PostgreSQL, which other machines write.
 *
 * `generation` counts the writes begun and ended in this process: an entry read from the
 * database is written only if no write began or ended while it was read, and none is running.
 */
type State = {
  generation: number;
  running: number;
  /** The last database and generation whose head was read and written (or could not be): nothing to do for them. */
  settled: { dir: string; generation: number } | null;
  refreshing: { dir: string; generation: number; done: Promise<void> } | null;
};

const state = () =>
  changeBus.shared<State>("head-file", () => ({
    generation: 0,
    running: 0,
    settled: null,
    refreshing: null,
  }));

function embeddedDir(): string | null {
  const target = dbTarget();
  return target.kind === "embedded" ? target.dir : null;
}

/** The head as the database has it now, or null before the first version. */
async function readEntry(): Promise<HeadEntry | null> {
  const head = await db().constitutionHead.findUnique({ where: { id: HEAD_ID } });
  if (!head) return null;
  const id = head.versionId;
  const [version, model, migrations] = await Promise.all([
    db().constitutionVersion.findUnique({ where: { id }, select: { files: true } }),
    db().constitutionModel.findUnique({ where: { versionId: id }, select: { model: true } }),
    db().$queryRawUnsafe<{ migration_name: string }[]>(APPLIED_MIGRATIONS_SQL),
  ]);
  if (!version) return null;
  const ref = (table: string, field: string) => ({ table, id, field });
  const files = parseColumn(
    constitutionFilesSchema,
    version.files,
    ref("constitution_version", "files"),
  );
  const learned = model
    ? parseColumn(learnedModelSchema, model.model, ref("constitution_model", "model"))
    : undefined;
  return {
    versionId: id,
    contentHash: contentHash(files),
    files,
    learned: learned && !isEmptyModel(learned) ? learned : null,
    migrations: migrations.map((m) => m.migration_name).sort(),
  };
}

/**
 * Reads the head and writes it, unless a write began or ended meanwhile. A failure leaves the
 * file absent (readers go to the database) until the next write: it is not retried per prompt.
 */
function refresh(dir: string): Promise<void> {
  const s = state();
  const generation = s.generation;
  if (s.refreshing?.generation === generation && s.refreshing.dir === dir) return s.refreshing.done;
  const done = readEntry().then(
    (entry) => {
      if (s.generation !== generation || s.running > 0) return;
      if (entry) headFile.write(dir, entry);
      s.settled = { dir, generation };
    },
    () => {
      if (s.generation === generation) s.settled = { dir, generation };
    },
  );
  s.refreshing = { dir, generation, done };
  return done.finally(() => {
    if (s.refreshing?.done === done) s.refreshing = null;
  });
}

export const headFileWrites = {
  /**
   * Runs a write that changes what the head serves: the head file is removed first (should
   * that fail, the write does not run) and written from the database once no write is running.
   */
  async changing<T>(work: () => Promise<T>): Promise<T> {
    const dir = embeddedDir();
    if (!dir) return work();
    const s = state();
    s.running++;
    s.generation++;
    try {
      headFile.remove(dir);
      return await work();
    } finally {
      s.running--;
      s.generation++;
      if (s.running === 0) await refresh(dir);
    }
  },

  /** Writes the head file when this process has not written it since the last write (a first read). */
  async ensure(): Promise<void> {
    const dir = embeddedDir();
    if (!dir) return;
    const s = state();
    if (s.running > 0 || (s.settled?.dir === dir && s.settled.generation === s.generation)) return;
    await refresh(dir);
  },
};
