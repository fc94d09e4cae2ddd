import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { DatabaseTarget } from "@/lib/env";
import { openMigrationSession, type MigrationSession } from "./migrate-driver";
import { migrationNames } from "./migration-state";

/**
 * Prisma's migrations table, column for column as its schema engine creates it, so that
 * `prisma migrate status|deploy|resolve` read what this runner writes.
 */
const MIGRATIONS_TABLE_DDL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

const RECORD = `INSERT INTO "_prisma_migrations"
  (id, checksum, migration_name, started_at, finished_at, applied_steps_count, logs)
  VALUES ($1, $2, $3, $4::timestamptz, $5::timestamptz, $6, $7)`;

/** A migration that failed, or a database whose recorded failure blocks migrating. One line, for people. */
export class MigrationError extends Error {
  constructor(
    message: string,
    readonly migration: string,
  ) {
    super(message);
    this.name = "MigrationError";
  }
}

export type LocalMigration = { name: string; script: Buffer; checksum: string };

/** The migrations in `dir` (one directory each, holding migration.sql), in name order. */
export function readMigrations(dir: string): LocalMigration[] {
  return migrationNames(dir).map((name) => {
    const script = readFileSync(path.join(dir, name, "migration.sql"));
    return { name, script, checksum: createHash("sha256").update(script).digest("hex") };
  });
}

type Recorded = {
  migration_name: string;
  started_at: Date | string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
};

/** What one run did: the migrations it applied, in order (empty when none was pending). */
export type MigrateResult = { applied: string[] };

export type MigrateOptions = {
  /** Where the migrations are: prisma/migrations in the repository. */
  migrationsDir: string;
  /** How long to wait for another process holding the embedded database. */
  lockWaitMs?: number;
};

/**
 * Applies the pending migrations of `migrationsDir` to `target`, each in one transaction,
 * recording them in `_prisma_migrations` as Prisma's `migrate deploy` does (sha256 of the
 * script as checksum). Other runners and Prisma's engine wait (advisory lock 72707369 on
 * PostgreSQL, the data directory's lock file on PGlite). A failed migration leaves nothing
 * but its record (finished_at null, the error in logs), and while such a record stands no
 * migration is applied, like Prisma's P3009.
 */
export async function migrateDatabase(
  target: DatabaseTarget,
  options: MigrateOptions,
): Promise<MigrateResult> {
  const local = readMigrations(options.migrationsDir);
  const session = await openMigrationSession(target, options.lockWaitMs);
  try {
    await session.exec(MIGRATIONS_TABLE_DDL);
    const recorded = await session.query<Recorded>(
      `SELECT migration_name, started_at, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at`,
    );
    const failed = recorded.find((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed) throw blockedBy(failed);
    const done = new Set(
      recorded.filter((r) => r.rolled_back_at === null).map((r) => r.migration_name),
    );
    const applied: string[] = [];
    for (const migration of local.filter((m) => !done.has(m.name))) {
      await apply(session, migration);
      applied.push(migration.name);
    }
    return { applied };
  } finally {
    await session.close();
  }
}

function blockedBy(failed: Recorded): MigrationError {
  const at = new Date(failed.started_at).toISOString();
  return new MigrationError(
    `Migration ${failed.migration_name} failed (started ${at}) and is recorded as failed, so no migration is applied (Prisma P3009). Repair the database, then run \`prisma migrate resolve --rolled-back ${failed.migration_name}\` (or --applied) and start again.`,
    failed.migration_name,
  );
}

async function apply(session: MigrationSession, migration: LocalMigration): Promise<void> {
  const started = new Date().toISOString();
  const row = (finished: string | null, steps: number, logs: string | null) => [
    randomUUID(),
    migration.checksum,
    migration.name,
    started,
    finished,
    steps,
    logs,
  ];
  try {
    await session.exec("BEGIN");
    await session.exec(migration.script.toString("utf8"));
    await session.query(RECORD, row(new Date().toISOString(), 1, null));
    await session.exec("COMMIT");
  } catch (error) {
    await session.exec("ROLLBACK").catch(() => undefined);
    const { message, code } = error as Error & { code?: unknown };
    const logs = `Migration name: ${migration.name}\n\n${typeof code === "string" ? `Database error code: ${code}\n\n` : ""}Database error:\n${message}`;
    await session.query(RECORD, row(null, 0, logs));
    const line = message.split("\n")[0]!.trim();
    throw new MigrationError(
      `Migration ${migration.name} failed: ${line}${typeof code === "string" ? ` (${code})` : ""}. Nothing of it was applied.`,
      migration.name,
    );
  }
}
