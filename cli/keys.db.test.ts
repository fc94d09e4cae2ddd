import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveCaller } from "@/lib/auth/caller";
import { closeDb, db, switchDatabase } from "@/lib/db/client";
import { resetEnv } from "@/lib/env";
import { assertLocal, copyPgliteTemplate, testPgUrl, unique } from "@/test/db";
import { EXIT } from "./errors";

const BIN = path.resolve(import.meta.dirname, "../bin/charter.mjs");
const pgUrl = testPgUrl();
const dataDir = mkdtempSync(path.join(os.tmpdir(), "charter-cli-keys-"));
// On PGlite, the CLI's first command opens a migrated copy instead of creating and migrating one.
copyPgliteTemplate(dataDir);

/** Runs `charter` from a temporary directory on the test database (PostgreSQL, or an embedded one of its own). */
function charter(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, CHARTER_DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.BETTER_AUTH_SECRET;
  if (pgUrl) env.DATABASE_URL = pgUrl;
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd: os.tmpdir(),
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
}

/** Opens the database the CLI wrote to; the embedded one allows one opener, so close it before the next command. */
async function openDatabase(): Promise<void> {
  if (pgUrl) {
    assertLocal(pgUrl);
    await switchDatabase({ kind: "postgres", url: pgUrl });
  } else {
    await switchDatabase({ kind: "embedded", dir: path.join(dataDir, "pglite") });
  }
}

const asKey = (key: string) => new Headers({ "x-api-key": key });

beforeAll(() => {
  process.env.BETTER_AUTH_SECRET ??= "cli-keys-test-secret-0123456789abcdef";
  resetEnv();
});
afterAll(async () => {
  await closeDb();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("charter keys", () => {
  it("creates a key shown once and stored hashed, revokes it by name, audited as cli", async () => {
    const name = unique("ci");
    const created = charter(["keys", "create", "--name", name, "--scope", "ingest", "--json"]);
    expect(created.stderr).toBe("");
    expect(created.status).toBe(EXIT.ok);
    const printed = JSON.parse(created.stdout) as {
      id: string;
      name: string;
      scope: string;
      key: string;
    };
    expect(Object.keys(printed)).toEqual(["id", "name", "scope", "key"]);
    expect(printed).toMatchObject({
      name,
      scope: "ingest",
      key: expect.stringMatching(/^chk_[A-Za-z]{64}$/),
    });

    await openDatabase();
    const row = await db().apikey.findUniqueOrThrow({ where: { id: printed.id } });
    expect(row.key).not.toContain(printed.key);
    expect(row.start).toBe(printed.key.slice(0, 6));
    expect(await resolveCaller(asKey(printed.key))).toMatchObject({
      kind: "api_key",
      keyId: printed.id,
      name,
      scopes: ["ingest"],
    });
    await closeDb();

    const revoked = charter(["keys", "revoke", name]);
    expect(revoked.stderr).toBe("");
    expect(revoked.stdout).toBe(`Revoked API key "${name}" (${printed.id}).\n`);
    const again = charter(["keys", "revoke", printed.id]);
    expect(again.status).toBe(EXIT.ok);
    expect(again.stdout).toBe(`API key "${name}" (${printed.id}) was already revoked.\n`);
    const listed = charter(["keys", "list", "--json"]);
    expect(
      (JSON.parse(listed.stdout) as { id: string; enabled: boolean }[]).find(
        (k) => k.id === printed.id,
      ),
    ).toMatchObject({ name, enabled: false, scopes: ["ingest"] });

    await openDatabase();
    expect(await resolveCaller(asKey(printed.key))).toBeNull();
    const audit = await db().auditLog.findMany({
      where: { objectType: "api_key", objectId: printed.id },
      orderBy: { id: "asc" },
    });
    expect(audit.map((a) => [a.action, a.actorLabel])).toEqual([
      ["api_key.create", "cli"],
      ["api_key.revoke", "cli"],
    ]);
    expect(audit[0]?.after).toMatchObject({
      name,
      scopes: ["ingest"],
      start: printed.key.slice(0, 6),
    });
    await closeDb();
  }, 180_000);

  it("takes both scopes, and a name of 64 characters", async () => {
    const name = unique("both").padEnd(64, "x");
    const created = charter(["keys", "create", "--name", name, "--scope", "ingest,read", "--json"]);
    expect(created.stderr).toBe("");
    const printed = JSON.parse(created.stdout) as {
      id: string;
      name: string;
      scope: string;
      key: string;
    };
    expect(printed).toMatchObject({ name, scope: "ingest,read" });
    await openDatabase();
    expect(await resolveCaller(asKey(printed.key))).toMatchObject({
      kind: "api_key",
      scopes: ["ingest", "read"],
    });
    await closeDb();
  }, 120_000);

  it.each([
    [
      ["--name", "x".repeat(65), "--scope", "ingest"],
      EXIT.invalid,
      "charter: --name: Keep the name under 64 characters.\n",
    ],
    [
      ["--name", "   ", "--scope", "ingest"],
      EXIT.invalid,
      "charter: --name: Name the key after what will use it.\n",
    ],
    [
      ["--name", "x", "--scope", "write"],
      EXIT.invalid,
      'charter: --scope must be ingest or read (got "write").\n',
    ],
    [["--name", "x"], EXIT.usage, "charter: --scope is required: ingest or read.\n"],
  ])("refuses create %j with exit %i", (args, status, stderr) => {
    const result = charter(["keys", "create", ...args]);
    expect(result.stderr).toBe(stderr);
    expect(result.status).toBe(status);
    expect(result.stdout).toBe("");
  });

  it("says which key it cannot find", () => {
    const result = charter(["keys", "revoke", "no-such-key"]);
    expect(result.stderr).toBe('charter: No API key has the id or name "no-such-key".\n');
    expect(result.status).toBe(EXIT.invalid);
  }, 120_000);
});
