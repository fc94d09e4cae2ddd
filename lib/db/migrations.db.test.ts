import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrateWithPrisma, unique } from "@/test/db";

const MIGRATIONS = readdirSync(path.resolve(import.meta.dirname, "../../prisma/migrations"), {
  withFileTypes: true,
})
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

const EXPECTED_TABLES = [
  "_prisma_migrations",
  "account",
  "apikey",
  "audit_log",
  "session",
  "user",
  "verification",
];

const pgServer = process.env.DATABASE_URL?.trim();

// The two tests share nothing, and spend most of their time awaiting the Prisma CLI: side by side.
describe.concurrent("migrations from empty", () => {
  it("apply to a new embedded PGlite database", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "charter-mig-"));
    try {
      const output = await migrateWithPrisma({ dataDir });
      expect(output).toMatch(/successfully applied|No pending migrations/);
      const pglite = new PGlite(path.join(dataDir, "pglite"));
      const tables = await pglite.query<{ tablename: string }>(
        `SELECT tablename FROM pg_tables WHERE schemaname = 'public'`,
      );
      const applied = await pglite.query<{ migration_name: string }>(
        `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY 1`,
      );
      await pglite.close();
      expect(tables.rows.map((r) => r.tablename)).toEqual(expect.arrayContaining(EXPECTED_TABLES));
      expect(applied.rows.map((r) => r.migration_name)).toEqual(MIGRATIONS);
      // A second run finds nothing to do.
      expect(await migrateWithPrisma({ dataDir })).toMatch(/No pending migrations/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(!pgServer)("apply to a new PostgreSQL database", async () => {
    const server = new URL(pgServer!);
    const name = unique("charter_test_mig").replace(/-/g, "_");
    const admin = new pg.Client({
      connectionString: Object.assign(new URL(server), { pathname: "/postgres" }).toString(),
    });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    try {
      const url = Object.assign(new URL(server), { pathname: `/${name}` }).toString();
      expect(await migrateWithPrisma({ databaseUrl: url })).toMatch(/successfully applied/);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const tables = await client.query<{ tablename: string }>(
        `SELECT tablename FROM pg_tables WHERE schemaname = 'public'`,
      );
      const applied = await client.query<{ migration_name: string }>(
        `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY 1`,
      );
      await client.end();
      expect(tables.rows.map((r) => r.tablename)).toEqual(expect.arrayContaining(EXPECTED_TABLES));
      expect(applied.rows.map((r) => r.migration_name)).toEqual(MIGRATIONS);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
