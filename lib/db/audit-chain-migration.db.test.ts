import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { auditChain } from "./audit";
import { closeDb, db, switchDatabase } from "./client";

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");
const CHAIN_MIGRATION = "20261126090000_audit_chain";

describe("the audit chain migration", () => {
  it("chains the rows already written, in (at, id) order, and the chain verifies and goes on", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "charter-chain-mig-"));
    try {
      const pglite = new PGlite(dir);
      const earlier = readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
        .filter((d) => d.isDirectory() && d.name < CHAIN_MIGRATION)
        .map((d) => d.name)
        .sort();
      for (const name of earlier)
        await pglite.exec(readFileSync(path.join(MIGRATIONS_DIR, name, "migration.sql"), "utf8"));
      // ids out of time order, as concurrent transactions leave them.
      await pglite.exec(`
        INSERT INTO audit_log (id, at, actor_label, action, object_type, object_id, after) VALUES
          (1, '2026-01-01T10:00:02Z', 'a', 'second', 'thing', '1', '{"n": 2}'),
          (2, '2026-01-01T10:00:01Z', 'a', 'first', 'thing', '2', NULL),
          (3, '2026-01-01T10:00:03Z', 'a', 'third', 'thing', '3', '{"n": 3}');
        SELECT setval('audit_log_id_seq', 3);`);
      await pglite.exec(
        readFileSync(path.join(MIGRATIONS_DIR, CHAIN_MIGRATION, "migration.sql"), "utf8"),
      );
      await pglite.close();

      await switchDatabase({ kind: "embedded", dir });
      await db().auditLog.create({
        data: { actorLabel: "a", action: "fourth", objectType: "thing", objectId: "4" },
      });
      const rows = await db().auditLog.findMany({ orderBy: { seq: "asc" } });
      expect(rows.map((r) => [Number(r.seq), r.action])).toEqual([
        [1, "first"],
        [2, "second"],
        [3, "third"],
        [4, "fourth"],
      ]);
      expect(await auditChain.verify()).toMatchObject({ intact: true, rows: 4, through: "4" });
    } finally {
      await closeDb();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
