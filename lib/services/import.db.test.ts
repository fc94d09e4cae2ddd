import { randomUUID } from "node:crypto";
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { setupTestDatabase } from "@/test/db";
import { ensureConstitution } from "./constitution";
import { importTranscripts, transcriptFiles } from "./import";

const FIXTURES = path.resolve(import.meta.dirname, "../../test/fixtures/transcripts");
const LOCAL_COMMANDS = "c41a9d07-2e6b-4b3f-9f15-8d0a7e2c5b64";
const RESUMED = "e8d2b6f1-4c3a-4d9e-b7a5-2f6c0e1d9a38";

let teardown: () => Promise<void>;
let dir: string;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
  dir = mkdtempSync(path.join(os.tmpdir(), "charter-import-"));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await teardown();
});

/** A fixture's lines under a fresh session id, so that runs on a shared database never meet. */
function fixtureLines(name: string, session: string): { id: string; lines: string[] } {
  const id = randomUUID();
  const lines = readFileSync(path.join(FIXTURES, `${name}.jsonl`), "utf8")
    .replaceAll(session, id)
    .split("\n")
    .filter(Boolean);
  return { id, lines };
}

/** A line Claude Code would append to the session, `seconds` after 10:00 on the fixture's day. */
function entry(
  session: string,
  uuid: string,
  seconds: number,
  body: Record<string, unknown>,
): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    userType: "external",
    cwd: "/home/dev/cli",
    sessionId: session,
    version: "2.0.55",
    ...body,
    uuid,
    timestamp: at(seconds).toISOString(),
  });
}
const at = (seconds: number) => new Date(Date.parse("2026-11-21T10:00:00.000Z") + seconds * 1000);
const minutes = (m: number) => m * 60;

async function turnsOf(session: string) {
  return db().turn.findMany({
    where: { sessionId: session },
    orderBy: { number: "asc" },
    include: { score: true },
  });
}

describe("importing a transcript that is still being written", () => {
  it("scores what is there, leaves the session open, and follows the file as it grows: new turns, re-scored turns, one outcome", async () => {
    const { id, lines } = fixtureLines("local-commands", LOCAL_COMMANDS);
    const file = path.join(dir, `${id}.jsonl`);
    // Up to "thanks, now run the tests": the agent has not answered it yet.
    writeFileSync(file, lines.slice(0, 13).join("\n") + "\n");

    const first = await importTranscripts([file], { now: at(minutes(2)) });
    expect(first).toMatchObject({
      files: 1,
      sessions: 1,
      open: 1,
      accepted: 4,
      duplicates: 0,
      malformed: [],
    });
    let turns = await turnsOf(id);
    expect(turns.map((t) => [t.number, t.prompt, t.response, t.score !== null])).toEqual([
      [
        1,
        "add a --verbose flag to the CLI",
        "Added `--verbose` to the CLI; it is off by default.",
        true,
      ],
      [2, "thanks, now run the tests", null, false],
    ]);
    expect(await db().agentSession.findUniqueOrThrow({ where: { id } })).toMatchObject({
      source: "import",
      endedAt: null,
      transcriptPath: file,
    });
    expect(await db().sessionOutcome.findUnique({ where: { sessionId: id } })).toBeNull();

    // The agent answers the pending prompt.
    appendFileSync(
      file,
      [
        entry(id, "grow-0001", 63, {
          type: "assistant",
          message: {
            role: "assistant",
            content: [
              {
                type: "tool_use",
                id: `toolu_${id}_t`,
                name: "Bash",
                input: { command: "npm test" },
              },
            ],
          },
        }),
        entry(id, "grow-0002", 80, {
          type: "user",
          message: {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: `toolu_${id}_t`,
                content: "Tests: 12 passed, 12 total",
              },
            ],
          },
        }),
        entry(id, "grow-0003", 85, {
          type: "assistant",
          message: {
            role: "assistant",
            content: [{ type: "text", text: "All 12 tests pass with the new flag." }],
          },
        }),
      ].join("\n") + "\n",
    );
    const grown = await importTranscripts([file], { now: at(minutes(3)) });
    expect(grown).toMatchObject({ open: 1, accepted: 2, duplicates: 4 });
    turns = await turnsOf(id);
    expect(turns[1]).toMatchObject({
      response: "All 12 tests pass with the new flag.",
      toolsPassed: true,
    });
    expect(turns[1]!.score?.joyInducing).toBe(1);

    // Nothing new: only duplicates, and the session is still open.
    expect(await importTranscripts([file], { now: at(minutes(4)) })).toMatchObject({
      open: 1,
      accepted: 0,
      duplicates: 6,
    });

    // Half an hour after its last entry the session is over: ended and given an outcome, once.
    expect(await importTranscripts([file], { now: at(85 + minutes(30)) })).toMatchObject({
      open: 0,
      accepted: 1,
      duplicates: 6,
    });
    expect(await db().agentSession.findUniqueOrThrow({ where: { id } })).toMatchObject({
      endReason: "idle",
      endedAt: at(85),
    });
    const ended = await db().sessionOutcome.findUniqueOrThrow({ where: { sessionId: id } });
    expect(ended.signals).toMatchObject({ prompt_count: 2 });

    // The person comes back to it: the new turn is added and the session ends again, its outcome recomputed, not added.
    appendFileSync(
      file,
      [
        entry(id, "grow-0004", minutes(60), {
          type: "user",
          message: { role: "user", content: "great, thanks! that's all for today" },
        }),
        entry(id, "grow-0005", minutes(60) + 4, {
          type: "assistant",
          message: {
            role: "assistant",
            content: [{ type: "text", text: "You're welcome; the flag is ready to ship." }],
          },
        }),
      ].join("\n") + "\n",
    );
    expect(await importTranscripts([file], { now: at(minutes(120)) })).toMatchObject({
      open: 0,
      accepted: 3,
      duplicates: 6,
    });
    turns = await turnsOf(id);
    expect(turns.map((t) => t.number)).toEqual([1, 2, 3]);
    expect(turns[2]).toMatchObject({
      prompt: "great, thanks! that's all for today",
      response: "You're welcome; the flag is ready to ship.",
    });
    expect(await db().sessionOutcome.count({ where: { sessionId: id } })).toBe(1);
    expect(
      (await db().sessionOutcome.findUniqueOrThrow({ where: { sessionId: id } })).signals,
    ).toMatchObject({ prompt_count: 3 });
    expect(await db().agentSession.findUniqueOrThrow({ where: { id } })).toMatchObject({
      endReason: "idle",
      endedAt: at(minutes(60) + 4),
    });
  });

  it("credits no principle for an imported session: the agent was never given any", async () => {
    const { id, lines } = fixtureLines("local-commands", LOCAL_COMMANDS);
    const file = path.join(dir, `${id}.jsonl`);
    writeFileSync(file, lines.join("\n") + "\n");
    await importTranscripts([file], { now: at(minutes(60)) });
    const turns = await turnsOf(id);
    expect(turns.length).toBeGreaterThan(0);
    for (const t of turns)
      expect(t).toMatchObject({
        contextDelivery: "imported",
        injectedPrinciples: [],
        injectedKeyPoints: [],
      });
    expect(
      (await db().sessionOutcome.findUniqueOrThrow({ where: { sessionId: id } })).credits,
    ).toEqual([]);
    expect(await db().principleUsage.count({ where: { traceId: id } })).toBe(0);
  });
});

describe("importing a session split over two files", () => {
  it("assembles it when both are imported, and ends it again when the second file arrives later", async () => {
    const first = fixtureLines("resumed/first", RESUMED);
    const id = first.id;
    const second = readFileSync(path.join(FIXTURES, "resumed/second.jsonl"), "utf8").replaceAll(
      RESUMED,
      id,
    );
    const project = path.join(dir, `project-${id}`);
    mkdirSync(project);
    writeFileSync(path.join(project, "a.jsonl"), first.lines.join("\n") + "\n");
    const later = at(minutes(24 * 60));

    // The first file alone: one turn, over.
    expect(await importTranscripts(await transcriptFiles(project), { now: later })).toMatchObject({
      files: 1,
      sessions: 1,
      open: 0,
      accepted: 3,
    });
    expect(
      (await db().sessionOutcome.findUniqueOrThrow({ where: { sessionId: id } })).signals,
    ).toMatchObject({ prompt_count: 1 });

    // Then the resumed file beside it: its repeated entries are duplicates, its new turn is added, the session ends again.
    writeFileSync(path.join(project, "b.jsonl"), second);
    expect(await importTranscripts(await transcriptFiles(project), { now: later })).toMatchObject({
      files: 2,
      sessions: 1,
      open: 0,
      accepted: 4,
      duplicates: 2,
    });
    const turns = await turnsOf(id);
    expect(turns.map((t) => [t.number, t.prompt, t.hasMutations, t.score !== null])).toEqual([
      [1, "why does GET /orders return 500?", false, true],
      [2, "ok, do it", true, true],
    ]);
    expect(await db().sessionOutcome.count({ where: { sessionId: id } })).toBe(1);
    expect(
      (await db().sessionOutcome.findUniqueOrThrow({ where: { sessionId: id } })).signals,
    ).toMatchObject({ prompt_count: 2, made_edits: true });

    expect(await importTranscripts(await transcriptFiles(project), { now: later })).toMatchObject({
      accepted: 0,
      duplicates: 6,
    });
  });
});
