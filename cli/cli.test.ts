import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "./errors";

const BIN = path.resolve(import.meta.dirname, "../bin/charter.mjs");

function charter(args: string[], env: Record<string, string> = {}, cwd?: string) {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...base, ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("charter CLI", () => {
  it.each([
    [[]],
    [["serve"]],
    [["db"]],
    [["db", "migrate"]],
    [["users"]],
    [["users", "create-admin"]],
  ])(
    "--help works for %j",
    (args) => {
      const { code, stdout } = charter([...args, "--help"]);
      expect(code).toBe(EXIT.ok);
      expect(stdout).toMatch(/^Usage: charter/);
    },
    60_000,
  );

  it("works from outside the repository, as people run it from their agent's project", () => {
    const { code, stdout, stderr } = charter(["constitution", "validate"], {}, tmpdir());
    expect(stderr).toBe("");
    expect(code).toBe(EXIT.ok);
    expect(stdout).toMatch(/^ok: \d+ core principles/);
  }, 60_000);

  it("exits 2 on a usage mistake", () => {
    expect(charter(["no-such-command"]).code).toBe(EXIT.usage);
    expect(charter(["serve", "--port", "http"]).code).toBe(EXIT.usage);
    expect(charter(["users", "create-admin"]).code).toBe(EXIT.usage);
  }, 60_000);

  it("stops on a malformed DATABASE_URL with one line naming it", () => {
    const { code, stderr } = charter(["serve"], { DATABASE_URL: "mysql://root@localhost/db" });
    expect(code).toBe(EXIT.invalid);
    expect(stderr.trim().split("\n")).toEqual([
      "charter: DATABASE_URL: must be a postgresql://user@host:port/database URL",
    ]);
  }, 60_000);

  it("explains an unreachable PostgreSQL without a stack trace", () => {
    const { code, stderr } = charter(["db", "migrate"], {
      DATABASE_URL: "postgresql://postgres@127.0.0.1:1/charter",
    });
    expect(code).toBe(EXIT.invalid);
    expect(stderr.trim()).toBe(
      "charter: Cannot reach PostgreSQL at 127.0.0.1:1/charter (DATABASE_URL): connection refused (is PostgreSQL running?).",
    );
  }, 60_000);

  it("refuses a bad e-mail for create-admin", () => {
    const { code, stderr } = charter(["users", "create-admin", "--email", "nobody"]);
    expect(code).toBe(EXIT.invalid);
    expect(stderr).toContain('--email is not an e-mail address: "nobody"');
  }, 60_000);
});
