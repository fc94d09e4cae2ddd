import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { cloneTemplateDatabase, onServer } from "@/test/db";
import { auditChain, auditLog, RECENT_WINDOW } from "./audit";
import { GENESIS_HASH } from "./audit-chain";
import { closeDb, db, switchDatabase } from "./client";

const ROOT = path.resolve(import.meta.dirname, "../..");
const actor = { id: null, label: "chain-test" };

/**
 * A database of each describe's own, since the test breaks its chain on purpose: a new
 * clone of the migrated template when the db tests run on PostgreSQL, else a copy of the migrated
 * PGlite template inside a data directory the CLI can be pointed at.
 */
type Fresh = { cliEnv: NodeJS.ProcessEnv; reopen: () => Promise<void>; drop: () => Promise<void> };

async function freshDatabase(): Promise<Fresh> {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.CHARTER_MIGRATE_DATABASE_URL;
  if (inject("pgUrl")) {
    const url = await cloneTemplateDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "charter-chain-cli-"));
    await switchDatabase({ kind: "postgres", url });
    return {
      cliEnv: { ...base, DATABASE_URL: url, CHARTER_DATA_DIR: dataDir },
      reopen: async () => void (await switchDatabase({ kind: "postgres", url })),
      drop: async () => {
        await closeDb();
        await onServer(
          url,
          `DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`,
        );
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const template = inject("pgliteTemplate");
  if (!template) throw new Error("The db test setup provided no database.");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "charter-chain-"));
  const dir = path.join(dataDir, "pglite");
  cpSync(template, dir, { recursive: true });
  await switchDatabase({ kind: "embedded", dir });
  return {
    cliEnv: { ...base, CHARTER_DATA_DIR: dataDir },
    reopen: async () => void (await switchDatabase({ kind: "embedded", dir })),
    drop: async () => {
      await closeDb();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `charter audit verify --json` in its own process; PGlite allows one opener, so this file's client is closed meanwhile. */
async function cliVerify(fresh: Fresh): Promise<{
  status: number | null;
  report: {
    intact: boolean;
    rows: number;
    through: string | null;
    breaks: { seq: string | null; kind: string; reason: string }[];
  };
}> {
  await closeDb();
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, "bin/charter.mjs"), "audit", "verify", "--json"],
    { cwd: ROOT, env: fresh.cliEnv, encoding: "utf8" },
  );
  await fresh.reopen();
  if (!result.stdout.trim())
    throw new Error(`charter audit verify printed nothing:\n${result.stderr}`);
  return { status: result.status, report: JSON.parse(result.stdout) };
}

async function append(n: number, label = "thing.change"): Promise<void> {
  for (let i = 0; i < n; i += 1) {
    await db().$transaction((tx) =>
      auditLog.append(tx, {
        actor,
        action: label,
        objectType: "thing",
        objectId: `t${i}`,
        before: { i, text: 'naïve 🙂 "quoted"' },
        after: i % 2 ? null : { i: i + 1 },
      }),
    );
  }
}

/** Runs statements as the owner with every trigger of the session off, as `session_replication_role = replica` allows. */
async function asOwnerWithoutTriggers(...statements: string[]): Promise<void> {
  await db().$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
    for (const sql of statements) await tx.$executeRawUnsafe(sql);
  });
}

// Each describe block has a database of its own and sets up what its tests read; no test
// depends on another having run before it.
describe("audit hash chain: appending", () => {
  let fresh: Fresh;
  beforeAll(async () => {
    fresh = await freshDatabase();
  });
  afterAll(() => fresh.drop());

  it("chains every appended row: seq without gaps, prev_hash = the previous hash, intact on verify", async () => {
    await append(5);
    // Concurrent writers wait for one another instead of forking the chain.
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        db().$transaction((tx) =>
          auditLog.append(tx, {
            actor,
            action: "thing.parallel",
            objectType: "thing",
            objectId: `p${i}`,
          }),
        ),
      ),
    );
    const rows = await db().auditLog.findMany({ orderBy: { seq: "asc" } });
    expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(rows[0]?.prevHash).toBe(GENESIS_HASH);
    rows.slice(1).forEach((row, i) => expect(row.prevHash).toBe(rows[i]!.hash));
    for (let i = 1; i < rows.length; i += 1)
      expect(rows[i]!.at.getTime()).toBeGreaterThanOrEqual(rows[i - 1]!.at.getTime());

    const report = await auditChain.verify();
    expect(report).toMatchObject({
      intact: true,
      rows: 13,
      from: "1",
      through: "13",
      headHash: rows[12]!.hash,
      breaks: [],
    });
  });

  it("ignores the chain fields and the time a client sends", async () => {
    await append(1);
    const [head] = await db().auditLog.findMany({ orderBy: { seq: "desc" }, take: 1 });
    await db().$executeRawUnsafe(
      `INSERT INTO audit_log (actor_label, action, object_type, object_id, seq, prev_hash, hash, at) VALUES ('x', 'forged', 'thing', 'f', 999, 'abc', 'def', '2001-01-01')`,
    );
    const [row] = await db().auditLog.findMany({ orderBy: { seq: "desc" }, take: 1 });
    expect(row).toMatchObject({ action: "forged", seq: head!.seq + 1n, prevHash: head!.hash });
    expect(row!.at.getTime()).toBeGreaterThan(Date.parse("2020-01-01"));
    expect((await auditChain.verify()).intact).toBe(true);
  });

  it("`charter audit verify` exits 0 on an intact chain", async () => {
    await append(2);
    const rows = await db().auditLog.count();
    const { status, report } = await cliVerify(fresh);
    expect(report).toMatchObject({
      intact: true,
      rows,
      through: String(rows),
      breaks: [],
    });
    expect(status).toBe(0);
  });
});

describe("audit hash chain: rows changed by the owner", () => {
  let fresh: Fresh;
  /** 14 chained rows, then an edit, a deletion, a replacement, a back-dated and an unchained row. */
  beforeAll(async () => {
    fresh = await freshDatabase();
    await append(14);
    const hashOf = (seq: number) => `(SELECT hash FROM audit_log WHERE seq = ${seq})`;
    // Edited: row 3's action.
    await asOwnerWithoutTriggers(`UPDATE audit_log SET action = 'thing.forged' WHERE seq = 3`);
    // Deleted: row 6.
    await asOwnerWithoutTriggers(`DELETE FROM audit_log WHERE seq = 6`);
    // Replaced: row 9 deleted and a forged row 9 written with a valid hash of its own.
    await asOwnerWithoutTriggers(
      `DELETE FROM audit_log WHERE seq = 9`,
      `INSERT INTO audit_log (seq, prev_hash, hash, at, actor_label, action, object_type, object_id)
       SELECT 9, ${hashOf(8)}, audit_log_hash(9, 100009, now(), NULL, 'admin', 'thing.innocent', 'thing', 'x', NULL, NULL, ${hashOf(8)}), now(), 'admin', 'thing.innocent', 'thing', 'x'`,
      `UPDATE audit_log SET id = 100009, at = (SELECT at FROM audit_log WHERE seq = 8) WHERE seq = 9`,
      `UPDATE audit_log SET hash = audit_log_hash(seq, id, at, actor_id, actor_label, action, object_type, object_id, before, after, prev_hash) WHERE seq = 9`,
    );
    // Back-dated: a well-formed next link, written in 2001.
    await asOwnerWithoutTriggers(
      `INSERT INTO audit_log (id, seq, prev_hash, hash, at, actor_label, action, object_type, object_id)
       SELECT 200000, 15, ${hashOf(14)}, audit_log_hash(15, 200000, '2001-01-01T00:00:00Z', NULL, 'admin', 'thing.old', 'thing', 'y', NULL, NULL, ${hashOf(14)}), '2001-01-01T00:00:00Z', 'admin', 'thing.old', 'thing', 'y'`,
    );
    // Unchained: a row written with the chain trigger off and no chain fields.
    await asOwnerWithoutTriggers(
      `INSERT INTO audit_log (id, actor_label, action, object_type, object_id) VALUES (300000, 'admin', 'thing.sneaky', 'thing', 'z')`,
    );
  });
  afterAll(() => fresh.drop());

  it("names each edit, deletion and insertion the owner makes by SQL, in the library and in `charter audit verify`", async () => {
    const expected = [
      { seq: "0", kind: "unchained", reason: expect.stringContaining("id 300000") },
      {
        seq: "3",
        kind: "edited",
        reason: "row 3: hash mismatch, its content was changed after it was written",
      },
      { seq: "7", kind: "missing", reason: "row 6 is missing before row 7: deleted" },
      {
        seq: "10",
        kind: "relinked",
        reason:
          "row 10: prev_hash does not match row 9's hash, a row before it was removed, replaced or inserted",
      },
      {
        seq: "15",
        kind: "out_of_order",
        reason: expect.stringMatching(
          /^row 15: written at 2001-01-01T00:00:00.000Z, before row 14 \(.*\): inserted out of order or back-dated$/,
        ),
      },
    ];
    const report = await auditChain.verify();
    expect(report.intact).toBe(false);
    expect(report.breaks).toEqual(expected.map((b) => expect.objectContaining(b)));

    const cli = await cliVerify(fresh);
    expect(cli.status).toBe(1);
    expect(cli.report.breaks).toEqual(expected.map((b) => expect.objectContaining(b)));
  });

  it("checks only the newest rows when given a window, and says so", async () => {
    const report = await auditChain.verify({ window: 3 });
    expect(report).toMatchObject({ complete: false, from: "13", through: "15", rows: 3 });
    expect(report.breaks.map((b) => b.seq)).toEqual(["15"]);
  });

  it("gives the Audit page the check of the newest rows, named by their first break", async () => {
    const report = await auditChain.recent();
    expect(report.rows).toBeLessThan(RECENT_WINDOW);
    expect(report).toMatchObject({ complete: true, intact: false, through: "15" });
    expect(report.breaks.map((b) => b.kind)).toEqual([
      "unchained",
      "edited",
      "missing",
      "relinked",
      "out_of_order",
    ]);
  });

  it("checks a head recorded earlier: still there with its hash, or named as rewritten or deleted", async () => {
    const [row14] = await db().auditLog.findMany({ where: { seq: 14n } });
    const kinds = async (expectHead: { seq: bigint; hash: string }) =>
      (await auditChain.verify({ expectHead })).breaks.filter(
        (b) => b.kind === "rewritten" || b.seq === null,
      );
    expect(await kinds({ seq: 14n, hash: row14!.hash })).toEqual([]);
    expect(await kinds({ seq: 14n, hash: "f".repeat(64) })).toEqual([
      expect.objectContaining({ seq: "14", kind: "rewritten" }),
    ]);
    expect(await kinds({ seq: 99n, hash: "f".repeat(64) })).toEqual([
      expect.objectContaining({
        kind: "missing",
        reason:
          "row 99, recorded earlier, is gone: the chain ends at row 15, its newest rows were deleted",
      }),
    ]);
    await closeDb();
    const bad = spawnSync(
      process.execPath,
      [path.join(ROOT, "bin/charter.mjs"), "audit", "verify", "--expect-head", "14:nothex"],
      { cwd: ROOT, env: fresh.cliEnv, encoding: "utf8" },
    );
    await fresh.reopen();
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--expect-head must be <seq>:<64 hex digits>");
  });
});
