import { spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REASON_SUFFIX, REJECTED_DIR, Spool, unanswered, type SpoolRead } from "./spool";

const tmp = () => mkdtempSync(path.join(os.tmpdir(), "charter-spool-"));
const asRoot = process.getuid?.() === 0;

/** A spool with one entry named like the hook's, made by `make(file)`. */
function withEntry(make: (file: string) => void) {
  const spool = new Spool(path.join(tmp(), "spool"));
  mkdirSync(spool.dir, { recursive: true });
  const file = path.join(spool.dir, "000000000000001-000000-entry-1.json");
  make(file);
  const [entry] = spool.list();
  return { spool, entry: entry!, file };
}

describe("Spool", () => {
  it("keeps arrival order, even when the clock goes back", () => {
    const spool = new Spool(path.join(tmp(), "spool"));
    spool.add({ id: "event-a" }, 2_000);
    spool.add({ id: "event-b" }, 2_000);
    spool.add({ id: "event-c" }, 1_000);
    spool.add({ id: "event-d" }, 3_000);
    expect(spool.list().map((e) => spool.read(e))).toEqual(
      ["event-a", "event-b", "event-c", "event-d"].map((id) => ({ kind: "event", event: { id } })),
    );
    expect(spool.list().map((e) => e.name)).toEqual([
      "000000000002000-000000-event-a.json",
      "000000000002000-000001-event-b.json",
      "000000000002000-000002-event-c.json",
      "000000000003000-000000-event-d.json",
    ]);
    expect(readdirSync(spool.dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("marks a spooled UserPromptSubmit as not delivered to the agent, and only that event", () => {
    const spool = new Spool(path.join(tmp(), "spool"));
    const prompt = {
      id: "prompt-1",
      type: "UserPromptSubmit",
      session_id: "s-1",
      prompt: "Fix the bug.",
    };
    spool.add(prompt, 1_000);
    spool.add({ id: "stop-1", type: "Stop", session_id: "s-1", response: "Done." }, 2_000);
    expect(spool.list().map((e) => spool.read(e))).toEqual([
      {
        kind: "event",
        event: {
          id: "prompt-1",
          type: "UserPromptSubmit",
          session_id: "s-1",
          prompt: "Fix the bug.",
          context_delivered: false,
        },
      },
      {
        kind: "event",
        event: { id: "stop-1", type: "Stop", session_id: "s-1", response: "Done." },
      },
    ]);
    expect(prompt).not.toHaveProperty("context_delivered");
    expect(unanswered({ type: "SessionEnd" })).toEqual({ type: "SessionEnd" });
  });

  it("lists only its own entries: other files, temporary files, the lock and rejected/ are not events", () => {
    const spool = new Spool(path.join(tmp(), "spool"));
    spool.add({ id: "event-a" }, 1_000);
    for (const name of [
      "README.txt",
      "notes.json",
      ".lock",
      ".000000000000002-000000-x.json.1.tmp",
      ".problem",
      "000000000000003-000000-x.json.bak",
    ])
      writeFileSync(path.join(spool.dir, name), "x");
    mkdirSync(path.join(spool.dir, REJECTED_DIR));
    expect(spool.list().map((e) => e.name)).toEqual(["000000000001000-000000-event-a.json"]);
  });

  it.each<[string, (file: string) => void, SpoolRead | ((file: string) => SpoolRead)]>([
    ["an empty file", (f) => writeFileSync(f, ""), { kind: "bad", problem: "is empty" }],
    [
      "garbage",
      (f) => writeFileSync(f, "not json"),
      { kind: "bad", problem: `is not JSON (Unexpected token 'o', "not json" is not valid JSON)` },
    ],
    [
      "JSON that is no object",
      (f) => writeFileSync(f, "[1, 2]"),
      { kind: "bad", problem: "is JSON but not an event object" },
    ],
    [
      "null",
      (f) => writeFileSync(f, "null"),
      { kind: "bad", problem: "is JSON but not an event object" },
    ],
    [
      "half an event",
      (f) => writeFileSync(f, '{"id": "e-1", "type": "St'),
      { kind: "bad", problem: "is not JSON (Unterminated string in JSON at position 25)" },
    ],
    [
      "a directory",
      (f) => mkdirSync(f),
      { kind: "bad", problem: "is a directory, not an event file" },
    ],
    [
      "a named pipe",
      (f) => spawnSync("mkfifo", [f]),
      { kind: "bad", problem: "is a named pipe, not an event file" },
    ],
    [
      "a link to nothing",
      (f) => symlinkSync(path.join(path.dirname(f), "missing"), f),
      { kind: "bad", problem: "is a link to nothing" },
    ],
    [
      "a link to itself",
      (f) => symlinkSync(f, f),
      (f) => ({
        kind: "bad",
        problem: `cannot be read (ELOOP: too many symbolic links encountered, stat '${f}')`,
      }),
    ],
  ])("reads %s as a bad entry, with the reason", (_, make, expected) => {
    const { spool, entry, file } = withEntry(make);
    expect(spool.read(entry)).toEqual(typeof expected === "function" ? expected(file) : expected);
  });

  it.skipIf(asRoot)("reads an unreadable file as a bad entry", () => {
    const { spool, entry, file } = withEntry((f) => {
      writeFileSync(f, '{"id":"e-1"}');
      chmodSync(f, 0);
    });
    expect(spool.read(entry)).toEqual({
      kind: "bad",
      problem: `cannot be read (EACCES: permission denied, open '${file}')`,
    });
  });

  it("reads a file removed meanwhile as gone", () => {
    const { spool, entry } = withEntry((f) => writeFileSync(f, '{"id":"e-1"}'));
    spool.remove(entry);
    expect(spool.read(entry)).toEqual({ kind: "gone" });
  });

  it("keeps the event of a file with garbage after it, and the file as it was in rejected/", () => {
    const original =
      '{"id":"e-1","type":"Stop","session_id":"s-1","response":"a } in \\" a string"}\u0000\u0000garbage{';
    const { spool, entry, file } = withEntry((f) => writeFileSync(f, original));
    const kept = path.join(spool.dir, REJECTED_DIR, entry.name);
    expect(spool.read(entry)).toEqual({
      kind: "event",
      event: { id: "e-1", type: "Stop", session_id: "s-1", response: 'a } in " a string' },
      salvaged: kept,
    });
    expect(readFileSync(file, "utf8")).toBe(
      '{"id":"e-1","type":"Stop","session_id":"s-1","response":"a } in \\" a string"}',
    );
    expect(readFileSync(kept, "utf8")).toBe(original);
    expect(readFileSync(kept.replace(/\.json$/, REASON_SUFFIX), "utf8").split("\n")[0]).toBe(
      "the 10 characters after the event (from character 77) are not JSON; the event before them stayed in the spool",
    );
    // Cleaned up once: reading again finds a plain event.
    expect(spool.read(spool.list()[0]!)).toEqual({
      kind: "event",
      event: { id: "e-1", type: "Stop", session_id: "s-1", response: 'a } in " a string' },
    });
  });

  it("moves a rejected entry aside with its reason, keeping both copies of a name rejected twice", () => {
    const spool = new Spool(path.join(tmp(), "spool"));
    const name = spool.add({ id: "event-a" }, 1_000);
    const first = spool.reject(spool.list()[0]!, "HTTP 422: bad", { error: { message: "bad" } });
    spool.add({ id: "event-a" }, 1_000);
    const second = spool.reject(spool.list()[0]!, "is empty");
    const rejected = path.join(spool.dir, REJECTED_DIR);
    expect([first, second]).toEqual([
      path.join(rejected, name),
      path.join(rejected, name.replace(/\.json$/, "~1.json")),
    ]);
    expect(readdirSync(rejected).sort()).toEqual([
      "000000000001000-000000-event-a.json",
      "000000000001000-000000-event-a.reason.txt",
      "000000000001000-000000-event-a~1.json",
      "000000000001000-000000-event-a~1.reason.txt",
    ]);
    const reason = readFileSync(
      path.join(rejected, "000000000001000-000000-event-a.reason.txt"),
      "utf8",
    ).split("\n");
    expect(reason[0]).toBe("HTTP 422: bad");
    expect(reason.slice(2).join("\n")).toBe(
      'server answer:\n{\n  "error": {\n    "message": "bad"\n  }\n}\n',
    );
    expect(
      readFileSync(path.join(rejected, "000000000001000-000000-event-a~1.reason.txt"), "utf8"),
    ).toMatch(/^is empty\nrejected at [\d-]+T[\d:.]+Z\n$/);
    expect(spool.list()).toEqual([]);
  });

  it("keeps a live event the server rejected, marked as the spool marks it", () => {
    const spool = new Spool(path.join(tmp(), "spool"));
    const target = spool.keepRejected(
      { id: "prompt-1", type: "UserPromptSubmit" },
      "HTTP 413: too large",
    );
    expect(path.dirname(target)).toBe(path.join(spool.dir, REJECTED_DIR));
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual({
      id: "prompt-1",
      type: "UserPromptSubmit",
      context_delivered: false,
    });
    expect(spool.list()).toEqual([]);
  });

  it("says a settings problem once, until it is cleared or changes", () => {
    const spool = new Spool(path.join(tmp(), "spool"));
    expect([
      spool.noteProblem("refused 401"),
      spool.noteProblem("refused 401"),
      spool.noteProblem("misdirected 404"),
      spool.noteProblem("misdirected 404"),
    ]).toEqual([true, false, true, false]);
    spool.clearProblem();
    expect(spool.noteProblem("misdirected 404")).toBe(true);
  });

  it("lets one replay hold the lock at a time, and takes over a stale one", async () => {
    const spool = new Spool(path.join(tmp(), "spool"));
    const first = await spool.lock(Date.now());
    expect(first).toBeDefined();
    expect(await spool.lock(Date.now() + 60)).toBeUndefined();
    first!.release();
    const second = await spool.lock(Date.now());
    expect(second).toBeDefined();
    const past = new Date(Date.now() - 60_000);
    utimesSync(second!.file, past, past);
    const third = await spool.lock(Date.now());
    expect(third).toBeDefined();
    third!.release();
    second!.release();
  });
});
