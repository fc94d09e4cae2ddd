import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { MigrateResult } from "@/lib/db/migrate";
import { APPLIED_MIGRATIONS_SQL, pendingMigrations } from "@/lib/db/migration-state";
import { databaseTarget, env, type DatabaseTarget, type Env } from "@/lib/env";
import { dataDirLockPath, lockHolder } from "@/lib/lock.mjs";
import { CliError } from "./errors";
import {
  localMigrations,
  MIGRATIONS_DIR,
  prepareEnv,
  ROOT,
  type BaseUrlDefault,
} from "./environment";

export {
  loadEnv,
  localMigrations,
  MIGRATIONS_DIR,
  prepareEnv,
  ROOT,
  type BaseUrlDefault,
} from "./environment";

/** Fails with a clear message when PostgreSQL cannot be reached; a no-op for the embedded database. */
export async function checkDatabase(e: Env): Promise<void> {
  const target = databaseTarget(e);
  if (target.kind === "embedded") return;
  const url = new URL(target.url);
  const where = `${url.hostname}:${url.port || "5432"}${url.pathname}`;
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (error) {
    const err = error as NodeJS.ErrnoException & { code?: string };
    const reason =
      err.code === "ECONNREFUSED"
        ? "connection refused (is PostgreSQL running?)"
        : err.code === "3D000"
          ? `the database does not exist (create it with: createdb ${url.pathname.slice(1)})`
          : err.code === "28P01" || err.code === "28000"
            ? "authentication failed"
            : err.code === "ENOTFOUND"
              ? "unknown host"
              : (err.message ?? String(error)).split("\n")[0];
    throw new CliError(`Cannot reach PostgreSQL at ${where} (DATABASE_URL): ${reason}.`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * PGlite allows one process per data directory, and whoever has it open holds `<dir>.lock`
 * (lib/lock.mjs): the Next server of `charter serve`, a CLI command, `prisma migrate dev`.
 * Other commands refuse to run beside a live holder rather than wait for a server.
 */
export function assertEmbeddedFree(e: Env): void {
  const target = databaseTarget(e);
  if (target.kind !== "embedded") return;
  const pid = lockHolder(dataDirLockPath(target.dir));
  if (pid !== null && pid !== process.pid) {
    throw new CliError(
      `A Charter server (pid ${pid}) has the embedded database open: stop it first, or use DATABASE_URL with PostgreSQL.`,
    );
  }
}

const SERVER_STATE = "server.json";

/**
 * Records the URL a `charter serve` or `charter dev` answers on, until the process exits,
 * so that other commands (`users create-admin`) print links for the port in use.
 */
export function recordServer(e: Env, url: string): void {
  const file = path.join(path.resolve(ROOT, e.CHARTER_DATA_DIR), SERVER_STATE);
  writeFileSync(file, JSON.stringify({ pid: process.pid, url }));
  process.on("exit", () => {
    try {
      if ((JSON.parse(readFileSync(file, "utf8")) as { pid?: unknown }).pid === process.pid)
        rmSync(file);
    } catch {
      // already gone
    }
  });
}

/** The URL of the running `charter serve`/`charter dev` on this data directory, or null when none runs. */
export function runningServerUrl(e: Env): string | null {
  const file = path.join(path.resolve(ROOT, e.CHARTER_DATA_DIR), SERVER_STATE);
  try {
    const state = JSON.parse(readFileSync(file, "utf8")) as { pid?: unknown; url?: unknown };
    return typeof state.pid === "number" && typeof state.url === "string" && pidAlive(state.pid)
      ? state.url
      : null;
  } catch {
    return null;
  }
}

/** Where Next.js builds (next.config.ts's distDir): CHARTER_NEXT_DIST_DIR, else .next, in the repository. */
export function nextDistDir(): string {
  return path.resolve(ROOT, env().CHARTER_NEXT_DIST_DIR);
}

/** The environment for child processes: this one, with the defaults prepareEnv filled in. */
export function childEnv(): NodeJS.ProcessEnv {
  return { ...process.env };
}

/** Runs a command from the repository root; resolves with its output, rejects with CliError on failure. */
export function run(
  command: string,
  args: string[],
  options: { quiet?: boolean; label: string; env?: Record<string, string> },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...childEnv(), ...options.env },
      stdio: options.quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", (error) =>
      reject(new CliError(`${options.label} could not start: ${error.message}`)),
    );
    child.on("close", (code) => {
      if (code === 0) resolve(output);
      else
        reject(
          new CliError(
            `${options.label} failed (exit ${code}).${output ? `\n${output.trim()}` : ""}`,
          ),
        );
    });
  });
}

/**
 * Applies pending migrations with Charter's runner (lib/db/migrate.ts, which records them
 * as Prisma does), as the tables' owner: CHARTER_MIGRATE_DATABASE_URL when set, else
 * DATABASE_URL, else the embedded database. A failed migration is a one-line CliError.
 */
export async function migrate(): Promise<MigrateResult> {
  const e = env();
  const target: DatabaseTarget = e.CHARTER_MIGRATE_DATABASE_URL
    ? { kind: "postgres", url: e.CHARTER_MIGRATE_DATABASE_URL }
    : databaseTarget(e);
  const { DatabaseBusyError } = await import("@/lib/db/migrate-driver");
  const { migrateDatabase, MigrationError } = await import("@/lib/db/migrate");
  try {
    return await migrateDatabase(target, {
      migrationsDir: MIGRATIONS_DIR,
      lockWaitMs: e.CHARTER_PGLITE_LOCK_TIMEOUT_MS,
    });
  } catch (error) {
    if (error instanceof MigrationError || error instanceof DatabaseBusyError)
      throw new CliError(error.message);
    throw error;
  }
}

/** True when a migration in prisma/migrations has not been applied (or the database is new). */
async function hasPendingMigrations(
  db: () => { $queryRawUnsafe<T>(sql: string): Promise<T> },
): Promise<boolean> {
  try {
    const rows = await db().$queryRawUnsafe<{ migration_name: string }[]>(APPLIED_MIGRATIONS_SQL);
    const applied = rows.map((r) => r.migration_name);
    return pendingMigrations(localMigrations(), applied).length > 0;
  } catch {
    return true;
  }
}

/**
 * An embedded database not created yet: every migration is pending, so the first command
 * migrates at once instead of starting PGlite only to find that out (1-2 s of CPU).
 */
function isNewEmbeddedDatabase(e: Env): boolean {
  const target = databaseTarget(e);
  return target.kind === "embedded" && !existsSync(path.join(target.dir, "PG_VERSION"));
}

/**
 * Runs `work` against the configured database: validates the environment, refuses
 * to share the embedded database with a running server, checks PostgreSQL is
 * reachable, applies pending migrations, and always closes the connection.
 * Charter's own errors become one-line CLI errors.
 */
export async function withDatabase<T>(
  work: () => Promise<T>,
  defaults: BaseUrlDefault = {},
): Promise<T> {
  const e = prepareEnv(defaults);
  assertEmbeddedFree(e);
  await checkDatabase(e);
  const { closeDb, db } = await import("@/lib/db/client");
  if (isNewEmbeddedDatabase(e)) await migrate();
  else if (await hasPendingMigrations(db)) {
    // The runner opens the database itself: PGlite allows one opener at a time.
    await closeDb();
    await migrate();
  }
  const { AppError } = await import("@/lib/errors");
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw new CliError(error.message);
    throw error;
  } finally {
    const { callLog } = await import("@/lib/services/constitution");
    await callLog().flush();
    await closeDb();
  }
}
