import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { setupTestDatabase } from "@/test/db";
import { ensureConstitution } from "./constitution";
import { importTranscripts, transcriptFiles } from "./import";

const FIXTURES = path.resolve(import.meta.dirname, "../../test/fixtures/transcripts");
const CODEX = "0199b1e4-7c2a-7d41-8f3e-5a9c2d7e1b60";
const GEMINI = "5c1e0b7a-2f4d-4e8b-9a61-7d3c2b1a0f99";
const GEMINI_JSON = "3f2a9c1d-8e7b-4c6a-9d5e-1f0a2b3c4d5e";
const CLAUDE = "7b0e3c52-91d4-4f6e-8a27-5c1f0d9e6b13";
/** A day after every fixture's last entry: every session is over (idle). */
const LATER = new Date("2026-11-26T12:00:00.000Z");

let teardown: () => Promise<void>;
let dir: string;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
  dir = mkdtempSync(path.join(os.tmpdir(), "charter-import-agents-"));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await teardown();
});

/** A fixture's text under a fresh session id, so that runs on a shared database never meet. */
function fixture(relative: string, session: string): { id: string; text: string } {
  const id = randomUUID();
  return { id, text: readFileSync(path.join(FIXTURES, relative), "utf8").replaceAll(session, id) };
}

function write(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

async function sessionFacts(id: string) {
  const session = await db().agentSession.findUniqueOrThrow({
    where: { id },
    include: {
      turns: { orderBy: { number: "asc" }, include: { score: true } },
      toolCalls: { orderBy: { at: "asc" } },
    },
  });
  return {
    agent: session.agent,
    agentVersion: session.agentVersion,
    source: session.source,
    endReason: session.endReason,
    turns: session.turns.map((t) => ({
      prompt: t.prompt,
      scored: t.score !== null,
      toolsPassed: t.toolsPassed,
      hasMutations: t.hasMutations,
    })),
    tools: session.toolCalls.map((c) => [c.turnNumber, c.name, c.succeeded]),
  };
}

describe("importing a directory of Claude Code, Codex and Gemini CLI sessions", () => {
  it("reads each file as its agent's, stores the agent on its session, skips what is no transcript, and adds nothing the second time", async () => {
    const root = path.join(dir, "mixed");
    const codex = fixture(`codex/rollout-2026-11-24T09-58-12-${CODEX}.jsonl`, CODEX);
    const gemini = fixture("gemini/session-2026-11-25T14-02-5c1e0b7a.jsonl", GEMINI);
    const geminiJson = fixture("gemini/session-2026-11-20T08-15-3f2a9c1d.json", GEMINI_JSON);
    const claude = fixture("subagent.jsonl", CLAUDE);
    const files = {
      codex: write(
        path.join(root, `codex/sessions/2026/11/24/rollout-2026-11-24T09-58-12-${codex.id}.jsonl`),
        codex.text,
      ),
      gemini: write(path.join(root, "gemini/tmp/shop/chats/session-a.jsonl"), gemini.text),
      geminiJson: write(path.join(root, "gemini/tmp/shop/chats/session-b.json"), geminiJson.text),
      claude: write(path.join(root, `claude/projects/notes/${claude.id}.jsonl`), claude.text),
      logs: write(
        path.join(root, "gemini/tmp/shop/logs.json"),
        JSON.stringify([{ sessionId: gemini.id, messageId: 0, type: "user", message: "hi" }]),
      ),
    };

    const first = await importTranscripts(await transcriptFiles(root), { now: LATER });
    expect(first).toMatchObject({
      files: 4,
      sessions: 4,
      open: 0,
      // 11 Codex events, 13 and 3 Gemini CLI events, 4 Claude Code events.
      accepted: 31,
      duplicates: 0,
      malformed: [],
      skipped: [files.logs],
    });
    expect(
      Object.fromEntries(
        first.perFile.map(({ file, agent }) => [path.relative(root, file), agent]),
      ),
    ).toEqual({
      [path.relative(root, files.codex)]: "codex",
      [path.relative(root, files.gemini)]: "gemini-cli",
      [path.relative(root, files.geminiJson)]: "gemini-cli",
      [path.relative(root, files.claude)]: "claude-code",
    });

    expect(await sessionFacts(codex.id)).toEqual({
      agent: "codex",
      agentVersion: "0.63.0",
      source: "import",
      endReason: "idle",
      turns: [
        {
          prompt: "Why does npm test fail on the cart totals?",
          scored: true,
          toolsPassed: false,
          hasMutations: false,
        },
        { prompt: "fix it", scored: true, toolsPassed: true, hasMutations: true },
        // Interrupted before it answered: not scored.
        {
          prompt: "now add a test for an empty cart",
          scored: false,
          toolsPassed: null,
          hasMutations: null,
        },
      ],
      tools: [
        [1, "shell", false],
        [1, "shell_command", true],
        [2, "apply_patch", true],
        [2, "shell", true],
        [3, "shell", false],
      ],
    });
    expect(await sessionFacts(gemini.id)).toEqual({
      agent: "gemini-cli",
      agentVersion: null,
      source: "import",
      endReason: "idle",
      turns: [
        {
          prompt: "Why does npm test fail on the cart totals?",
          scored: true,
          toolsPassed: false,
          hasMutations: false,
        },
        { prompt: "fix it in @src/cart.ts", scored: true, toolsPassed: true, hasMutations: true },
        {
          prompt: "run the linter and fix what it finds",
          scored: true,
          toolsPassed: false,
          hasMutations: false,
        },
      ],
      tools: [
        [1, "run_shell_command", false],
        [1, "read_file", true],
        [2, "replace", true],
        [2, "run_shell_command", true],
        [3, "run_shell_command", false],
        [3, "replace", false],
      ],
    });
    expect(await sessionFacts(geminiJson.id)).toMatchObject({
      agent: "gemini-cli",
      turns: [{ prompt: "How do I list the files changed in the last commit?", scored: true }],
      tools: [],
    });
    expect(await sessionFacts(claude.id)).toMatchObject({
      agent: "claude-code",
      agentVersion: "2.0.55",
      turns: [{ scored: true }],
      tools: [[1, "Task", true]],
    });

    const again = await importTranscripts(await transcriptFiles(root), { now: LATER });
    expect(again).toMatchObject({ files: 4, sessions: 4, accepted: 0, duplicates: 31 });
    expect(await db().turn.count({ where: { sessionId: codex.id } })).toBe(3);
    expect(await db().toolCall.count({ where: { sessionId: gemini.id } })).toBe(6);
  });

  it("follows a Codex rollout as it grows: the first turn, then the rest, each event once", async () => {
    const codex = fixture(`codex/rollout-2026-11-24T09-58-12-${CODEX}.jsonl`, CODEX);
    const file = path.join(dir, `rollout-2026-11-24T09-58-12-${codex.id}.jsonl`);
    const lines = codex.text.split("\n");
    // Through the first reply and its token count; the agent is still at work a minute later.
    writeFileSync(file, lines.slice(0, 17).join("\n") + "\n");
    const soon = new Date("2026-11-24T09:59:30.000Z");
    expect(await importTranscripts([file], { now: soon })).toMatchObject({
      sessions: 1,
      open: 1,
      accepted: 4,
      duplicates: 0,
    });
    expect((await sessionFacts(codex.id)).turns).toEqual([
      {
        prompt: "Why does npm test fail on the cart totals?",
        scored: true,
        toolsPassed: false,
        hasMutations: false,
      },
    ]);

    writeFileSync(file, codex.text);
    expect(await importTranscripts([file], { now: LATER })).toMatchObject({
      open: 0,
      accepted: 7,
      duplicates: 4,
    });
    const facts = await sessionFacts(codex.id);
    expect(facts.turns.map((t) => t.prompt)).toEqual([
      "Why does npm test fail on the cart totals?",
      "fix it",
      "now add a test for an empty cart",
    ]);
    expect(facts.tools).toHaveLength(5);
    expect(facts.endReason).toBe("idle");
  });
});
