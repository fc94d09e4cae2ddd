import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { acquireLock, dataDirLockPath } from "@/lib/lock.mjs";
import { createPrisma } from "./client";
import { migrateDatabase } from "./migrate";
import { DatabaseBusyError } from "./migrate-driver";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MIGRATIONS_DIR = path.join(ROOT, "prisma/migrations");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "charter-embedded-lock-"));
const dir = path.join(dataDir, "pglite");
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the embedded database's lock file (<dir>.lock)", () => {
  it("held by the app, keeps out the runner, the app's client and the schema-engine stand-in", async () => {
    const lock = await acquireLock(dataDirLockPath(dir));
    try {
      const busy = await migrateDatabase(
        { kind: "embedded", dir },
        { migrationsDir: MIGRATIONS_DIR, lockWaitMs: 100 },
      ).catch((e: unknown) => e);
      expect(busy).toBeInstanceOf(DatabaseBusyError);
      expect((busy as Error).message).toContain(`in use by process ${process.pid}`);
      expect(() => createPrisma({ kind: "embedded", dir })).toThrow(
        `is in use by process ${process.pid}`,
      );
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        CHARTER_DATA_DIR: dataDir,
        CHARTER_PGLITE_LOCK_TIMEOUT_MS: "300",
      };
      delete env.DATABASE_URL;
      const prisma = spawnSync(
        process.execPath,
        [path.join(ROOT, "node_modules/prisma/build/index.js"), "migrate", "deploy"],
        { cwd: ROOT, env, encoding: "utf8" },
      );
      expect(prisma.status).not.toBe(0);
      expect(prisma.stdout + prisma.stderr).toContain(`in use by process ${process.pid}`);
    } finally {
      lock!.release();
    }
  });

  it("held by the stand-in, keeps out the runner; once it is gone, the runner migrates", async () => {
    const standIn = path.join(ROOT, "prisma/schema-engine/pglite-dir.mjs");
    const script = `import { lockDataDir } from ${JSON.stringify(standIn)};
      await lockDataDir(${JSON.stringify(dir)}, () => undefined);
      console.log("locked");
      process.stdin.on("data", () => process.exit(0));`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "inherit"],
    });
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    const busy = await migrateDatabase(
      { kind: "embedded", dir },
      { migrationsDir: MIGRATIONS_DIR, lockWaitMs: 100 },
    ).catch((e: unknown) => e);
    expect((busy as Error).message).toContain(`in use by process ${child.pid}`);
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.stdin.write("exit\n");
    await exited;
    const result = await migrateDatabase(
      { kind: "embedded", dir },
      { migrationsDir: MIGRATIONS_DIR },
    );
    expect(result.applied.length).toBeGreaterThan(0);
  });
});
