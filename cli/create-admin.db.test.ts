import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "./errors";

const BIN = path.resolve(import.meta.dirname, "../bin/charter.mjs");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "charter-cli-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function charter(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, CHARTER_DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  return spawnSync(process.execPath, [BIN, ...args], { env, encoding: "utf8", timeout: 120_000 });
}

describe("charter users create-admin on the embedded database", () => {
  it("migrates, creates the admin and prints a one-time link; again, it promotes instead", () => {
    const first = charter([
      "users",
      "create-admin",
      "--email",
      "Root@Example.com",
      "--url",
      "http://localhost:4000",
    ]);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(EXIT.ok);
    expect(first.stdout).toMatch(/^Created Root@Example.com an admin/);
    expect(first.stdout).toMatch(
      /http:\/\/localhost:4000\/api\/auth\/magic-link\/verify\?token=\w+/,
    );
    const second = charter(["users", "create-admin", "--email", "root@example.com"]);
    expect(second.status).toBe(EXIT.ok);
    expect(second.stdout).toMatch(/^Made root@example.com an admin/);
  }, 120_000);

  it("refuses while a server holds the embedded database", () => {
    // The current test process stands in for a running server: it holds the embedded
    // database's lock file (lib/lock.mjs), which holds the holder's pid.
    writeFileSync(path.join(dataDir, "pglite.lock"), String(process.pid));
    const result = charter(["db", "migrate"]);
    rmSync(path.join(dataDir, "pglite.lock"));
    expect(result.status).toBe(EXIT.invalid);
    expect(result.stderr.trim()).toBe(
      `charter: A Charter server (pid ${process.pid}) has the embedded database open: stop it first, or use DATABASE_URL with PostgreSQL.`,
    );
  }, 60_000);
});
