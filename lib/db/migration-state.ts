import { readdirSync } from "node:fs";

// What "pending" means, for the runner's callers that only check (a CLI command before it
// opens the database, `charter retrieve`'s short path): no database client, no driver.

/** The migrations in `dir` (one directory each), by name, in the order they apply. */
export function migrationNames(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** The names of the migrations a database has applied, as Prisma records them. */
export const APPLIED_MIGRATIONS_SQL = `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;

/** The local migrations the database has not applied. */
export function pendingMigrations(local: readonly string[], applied: Iterable<string>): string[] {
  const done = new Set(applied);
  return local.filter((name) => !done.has(name));
}
