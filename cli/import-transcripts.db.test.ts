import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyPgliteTemplate, testPgUrl } from "@/test/db";
import { EXIT } from "./errors";

const BIN = path.resolve(import.meta.dirname, "../bin/charter.mjs");
const FIXTURES = path.resolve(import.meta.dirname, "../test/fixtures/transcripts");
const pgUrl = testPgUrl();
const dataDir = mkdtempSync(path.join(os.tmpdir(), "charter-cli-import-"));
const input = mkdtempSync(path.join(os.tmpdir(), "charter-cli-import-in-"));
// On PGlite, the CLI opens a migrated copy instead of creating and migrating one.
copyPgliteTemplate(dataDir);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(input, { recursive: true, force: true });
});

/** Runs `charter` from a temporary directory on the test database (PostgreSQL, or an embedded one of its own). */
function charter(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, CHARTER_DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  if (pgUrl) env.DATABASE_URL = pgUrl;
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd: os.tmpdir(),
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
}

/** A fixture copied under `relative`, its session id replaced by a fresh one (the database may be shared). */
function place(fixture: string, session: string, relative: string): void {
  const file = path.join(input, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    readFileSync(path.join(FIXTURES, fixture), "utf8").replaceAll(session, randomUUID()),
  );
}

describe("charter import transcripts", () => {
  it("says which agent wrote each file, skips what is no transcript, and adds nothing the second time", () => {
    const codex = "codex/rollout-2026-11-24T09-58-12-0199b1e4-7c2a-7d41-8f3e-5a9c2d7e1b60.jsonl";
    place(codex, "0199b1e4-7c2a-7d41-8f3e-5a9c2d7e1b60", "sessions/2026/11/24/rollout.jsonl");
    place(
      "gemini/session-2026-11-25T14-02-5c1e0b7a.jsonl",
      "5c1e0b7a-2f4d-4e8b-9a61-7d3c2b1a0f99",
      "chats/session.jsonl",
    );
    place("subagent.jsonl", "7b0e3c52-91d4-4f6e-8a27-5c1f0d9e6b13", "project/claude.jsonl");
    writeFileSync(path.join(input, "logs.json"), "[]\n");

    const first = charter(["import", "transcripts", input]);
    expect(first.status).toBe(EXIT.ok);
    expect(first.stdout.trim().split("\n")).toEqual([
      "imported: 3 files (1 Claude Code, 1 Codex, 1 Gemini CLI), 3 sessions, 28 events applied, 0 already there, 0 malformed lines",
      "  Gemini CLI: chats/session.jsonl",
      "  Claude Code: project/claude.jsonl",
      "  Codex: sessions/2026/11/24/rollout.jsonl",
      "  skipped: logs.json is no Claude Code, Codex or Gemini CLI transcript",
    ]);

    const again = charter(["import", "transcripts", input]);
    expect(again.status).toBe(EXIT.ok);
    expect(again.stdout).toMatch(/^imported: 3 files .*, 0 events applied, 28 already there,/);
  });

  it("lists where each agent keeps its sessions in --help", () => {
    const { status, stdout } = charter(["import", "transcripts", "--help"]);
    expect(status).toBe(EXIT.ok);
    expect(stdout).toContain("~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl");
    expect(stdout).toContain("~/.gemini/tmp/<project>/chats/session-*.jsonl");
    expect(stdout).toContain("~/.claude/projects/<project>/*.jsonl");
  });
});
