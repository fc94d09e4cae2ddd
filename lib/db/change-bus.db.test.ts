import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { resolveCaller } from "@/lib/auth/caller";
import { resetEnv } from "@/lib/env";
import { builtStoreVersion, currentStore, ensureConstitution } from "@/lib/services/constitution";
import { setupTestDatabase, testPgUrl, unique } from "@/test/db";
import { apiKeys } from "./api-keys";
import { changeBus, memo, type Change } from "./change-bus";
import { db } from "./client";
import { constitutionVersions } from "./constitution";
import { users } from "./users";
import { weightSets } from "./weights";

// The caches of this process (verified keys, the version head, the weight set in force)
// against changes made in this process, in another process, and past a lost listener.

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const system = { id: null, label: "test" };
let teardown: () => Promise<void>;
let scratch: string;

beforeAll(async () => {
  process.env.BETTER_AUTH_SECRET ??= "change-bus-test-secret-0123456789abcdef";
  resetEnv();
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
  scratch = mkdtempSync(path.join(os.tmpdir(), "charter-change-bus-"));
});
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await teardown();
});

const resolve = (key: string) => resolveCaller(new Headers({ "x-api-key": key }));

/** Polls `check` until it holds, at most `timeoutMs`; returns how long it took. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`not seen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function keyFor(role: "admin" | "editor" = "admin") {
  const owner = await users.create(
    { email: `${unique("bus")}@example.test`, name: "Bus", role },
    system,
  );
  const made = await apiKeys.create(
    { name: unique("bus"), scopes: ["ingest"] },
    { id: owner.id, label: owner.email },
  );
  return { ownerId: owner.id, ...made };
}

describe("a change announced in a transaction", () => {
  it("is taken by this instance when the transaction commits, and never when it rolls back", async () => {
    const seen: (Change | null)[] = [];
    const unsubscribe = changeBus.subscribe((change) => seen.push(change));
    try {
      await expect(
        changeBus.transaction(async (_tx, announce) => {
          await announce({ topic: "weights", id: "rolled-back" });
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(seen.filter((c) => c?.id === "rolled-back")).toEqual([]);
      await changeBus.transaction(async (_tx, announce) => {
        await announce({ topic: "weights", id: "committed" });
        // Not before the commit.
        expect(seen.filter((c) => c?.id === "committed")).toEqual([]);
      });
      expect(seen.filter((c) => c?.id === "committed")).toEqual([
        { topic: "weights", id: "committed" },
      ]);
    } finally {
      unsubscribe();
    }
  });

  it("keeps a read that began before it out of the cache: it is answered, and the next read loads again", async () => {
    let loads = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const value = memo(unique("memo"), ["weights"], async () => {
      loads++;
      if (loads === 1) await gate;
      return loads;
    });
    await eventually(async () => changeBus.trusted());
    const first = value.get();
    await changeBus.announce({ topic: "weights" });
    release();
    expect(await first).toBe(1);
    expect(await value.get()).toBe(2);
    expect(await value.get()).toBe(2);
    expect(loads).toBe(2);
  });
});

describe("what this instance keeps, after a change made here", () => {
  it("a revoked key, a blocked owner and a demoted owner are seen on the next request", async () => {
    const revoked = await keyFor();
    expect(await resolve(revoked.key)).toMatchObject({ keyId: revoked.id });
    await apiKeys.revoke(revoked.id, system);
    expect(await resolve(revoked.key)).toBeNull();

    const blocked = await keyFor();
    expect(await resolve(blocked.key)).toMatchObject({ keyId: blocked.id });
    await users.setBlocked(blocked.ownerId, true, system);
    expect(await resolve(blocked.key)).toBeNull();
    await users.setBlocked(blocked.ownerId, false, system);
    expect(await resolve(blocked.key)).toMatchObject({ keyId: blocked.id });

    const demoted = await keyFor("editor");
    expect(await resolve(demoted.key)).toMatchObject({ scopes: ["ingest"] });
    await users.setRole(demoted.ownerId, "viewer", system);
    expect(await resolve(demoted.key)).toMatchObject({ scopes: [] });
  });

  it("a saved version and a new weight set are in force on the next read, the version's index built ahead of any prompt", async () => {
    // A process that retrieves (a server) builds the next index when a save is announced.
    await currentStore();
    const before = (await constitutionVersions.current())!;
    const saved = await constitutionVersions.save(
      {
        files: before.files.map((f) =>
          f.path === "core.yaml" ? { ...f, text: `${f.text}\n# ${unique("edit")}\n` } : f,
        ),
        baseVersionId: before.id,
        message: "a change",
      },
      system,
    );
    expect((await constitutionVersions.current())?.id).toBe(saved.id);
    // Its index is built in the background, without a prompt asking for it.
    await eventually(async () => builtStoreVersion() === saved.id);
    const weights = await weightSets.current();
    const { weightSet } = await weightSets.save(
      { ...weights.weights, tasteful: 2 },
      "more taste",
      system,
    );
    expect((await weightSets.current()).id).toBe(weightSet.id);
  });
});

// Another process on one PostgreSQL: an instance learns of it only through LISTEN/NOTIFY.
describe.runIf(inject("pgUrl") !== null)("a change made by another process", () => {
  /** Runs `body` (statements over the repositories) in a second Node process with this database. */
  function inOtherProcess(body: string): void {
    const script = path.join(scratch, `${unique("writer")}.mts`);
    writeFileSync(
      script,
      [
        `import { apiKeys } from "@/lib/db/api-keys";`,
        `import { closeDb } from "@/lib/db/client";`,
        `import { constitutionVersions } from "@/lib/db/constitution";`,
        `import { users } from "@/lib/db/users";`,
        `import { weightSets } from "@/lib/db/weights";`,
        `const system = { id: null, label: "other process" };`,
        body,
        `await closeDb();`,
      ].join("\n"),
    );
    const ran = spawnSync(
      path.join(ROOT, "node_modules/.bin/tsx"),
      ["--tsconfig", path.join(ROOT, "tsconfig.json"), script],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: testPgUrl()! },
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    if (ran.status !== 0)
      throw new Error(`the other process failed (${ran.status}): ${ran.stderr}${ran.stdout}`);
  }

  beforeAll(async () => {
    // Caches are in use only once this process listens.
    await eventually(async () => changeBus.trusted());
  });

  it("a revoked key is refused here once the other process commits", async () => {
    const { id, key } = await keyFor();
    expect(await resolve(key)).toMatchObject({ keyId: id });
    inOtherProcess(`await apiKeys.revoke(${JSON.stringify(id)}, system);`);
    const ms = await eventually(async () => (await resolve(key)) === null);
    console.info(`revoked key refused ${ms.toFixed(0)} ms after the other process returned`);
  });

  it("a blocked owner's key is refused here once the other process commits", async () => {
    const { ownerId, key } = await keyFor();
    expect(await resolve(key)).not.toBeNull();
    inOtherProcess(`await users.setBlocked(${JSON.stringify(ownerId)}, true, system);`);
    const ms = await eventually(async () => (await resolve(key)) === null);
    console.info(
      `blocked owner's key refused ${ms.toFixed(0)} ms after the other process returned`,
    );
  });

  it("a version saved and a weight set made there are in force here", async () => {
    const weights = await weightSets.current();
    await currentStore();
    const built = builtStoreVersion();
    inOtherProcess(
      [
        `const v = (await constitutionVersions.current())!;`,
        `await constitutionVersions.save({ files: v.files.map((f) => f.path === "core.yaml" ? { ...f, text: f.text + "\\n# ${unique("other")}\\n" } : f), baseVersionId: v.id, message: "from the other process" }, system);`,
        `const w = await weightSets.current();`,
        `await weightSets.save({ ...w.weights, curated: 3 }, "from the other process", system);`,
      ].join("\n"),
    );
    const versionMs = await eventually(async () => (builtStoreVersion() ?? 0) > (built ?? 0));
    const weightsMs = await eventually(async () => (await weightSets.current()).id > weights.id);
    const head = await db().constitutionHead.findUniqueOrThrow({ where: { id: 1 } });
    // Built from the notification alone, before anything here asked for the version.
    expect(builtStoreVersion()).toBe(head.versionId);
    expect((await constitutionVersions.current())?.id).toBe(head.versionId);
    console.info(
      `version's index built ${versionMs.toFixed(0)} ms, weight set ${weightsMs.toFixed(0)} ms after the other process returned`,
    );
  });
});

describe.runIf(inject("pgUrl") !== null)("while the listener is not connected", () => {
  it("caches are dropped and bypassed: a key revoked where no one announces it is refused on the next request", async () => {
    await eventually(async () => changeBus.trusted());
    const kept = await keyFor();
    expect(await resolve(kept.key)).not.toBeNull();
    // A write past the repositories announces nothing: while the listener vouches for the
    // cache, the key is answered from memory (this is what the listener's loss must undo).
    await db().apikey.update({ where: { id: kept.id }, data: { enabled: false } });
    expect(await resolve(kept.key)).not.toBeNull();

    const generation = changeBus.generation();
    const admin = new pg.Client({ connectionString: testPgUrl()! });
    await admin.connect();
    try {
      const killed = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
        [`charter-change-bus ${process.pid}`],
      );
      expect(killed.rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    // The loss is taken (the generation moves on it), and from then on nothing stale is served.
    await eventually(async () => changeBus.generation() !== generation);
    expect(await resolve(kept.key)).toBeNull();
    // And it comes back by itself.
    await eventually(async () => changeBus.trusted());
  });
});
