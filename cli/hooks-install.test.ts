import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBundles } from "@/test/cli-bundle";

// `charter hooks install` tells where the hooks will send, and when no URL is set and a
// Charter server runs from this clone on another port, points them at it (a tester's
// hooks sent to port 3000 while the server ran elsewhere).

const BIN = path.resolve(import.meta.dirname, "..", "bin", "charter.mjs");
let dir: string;

beforeAll(() => expect(ensureBundles()).toBeNull(), 120_000);
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function install(env: Record<string, string>) {
  dir ??= mkdtempSync(path.join(os.tmpdir(), "charter-install-"));
  const project = path.join(dir, "project");
  mkdirSync(project, { recursive: true });
  const base = { ...process.env };
  delete base.CHARTER_URL;
  delete base.CHARTER_API_KEY;
  return spawnSync(process.execPath, [BIN, "hooks", "install", "--project", project], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
    env: {
      ...base,
      HOME: dir,
      CHARTER_HOOK_CONFIG: path.join(dir, "hook.json"),
      CHARTER_DATA_DIR: path.join(dir, "data"),
      ...env,
    },
  });
}

describe("charter hooks install says where the hooks send", () => {
  it("writes the running server's URL to the hook's config file, keeping the key there", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "charter-install-"));
    mkdirSync(path.join(dir, "data"));
    // A server of this clone, alive (this test's own pid), on another port.
    writeFileSync(
      path.join(dir, "data", "server.json"),
      JSON.stringify({ pid: process.pid, url: "http://127.0.0.1:4567" }),
    );
    writeFileSync(path.join(dir, "hook.json"), JSON.stringify({ api_key: "chk_kept" }));
    const result = install({});
    expect(result.status).toBe(0);
    const file = path.join(dir, "hook.json");
    expect(result.stdout).toContain(
      `The hooks send to http://127.0.0.1:4567, the Charter server running now: written to ${file} (CHARTER_URL overrides it).`,
    );
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      api_key: "chk_kept",
      url: "http://127.0.0.1:4567",
    });
  });

  it("with no server running, names the default and how to change it", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "charter-install-"));
    const result = install({});
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      "The hooks send to http://127.0.0.1:3000 (the default). If your server runs elsewhere, set CHARTER_URL=<its URL>",
    );
    expect(result.stdout).toContain("They need an API key with the ingest scope");
  });

  it("names CHARTER_URL when it is set, and writes nothing", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "charter-install-"));
    const result = install({
      CHARTER_URL: "http://charter.internal:8080",
      CHARTER_API_KEY: "chk_x",
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("The hooks send to http://charter.internal:8080 (CHARTER_URL;");
    expect(result.stdout).not.toContain("They need an API key");
    expect(() => readFileSync(path.join(dir, "hook.json"), "utf8")).toThrow();
  });
});
