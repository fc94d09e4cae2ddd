/**
 * Spool entries that are not events (a directory, a link to nothing, a named pipe,
 * garbage, an event with garbage after it), through the bundled hook and `spool flush`:
 * each is moved to rejected/ with its reason and one stderr line, and nothing else is
 * held up or lost.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../errors";
import { REASON_SUFFIX } from "./spool";
import { buildHook, closeServers, lines, payload, run, setup } from "./spawn-hook";

afterEach(closeServers);

beforeAll(() => {
  const build = buildHook();
  expect(build.status, build.stderr).toBe(0);
}, 60_000);

const event = (id: string) => ({
  id: `spooled-${id}`,
  type: "SessionEnd",
  session_id: "s-bad-entries",
});

/** The spool of a machine that went through a lot; the good events are 1, 5 (with garbage after it) and 8. */
function badSpool(spoolDir: string): string[] {
  mkdirSync(spoolDir, { recursive: true });
  const at = (n: number, id: string) => path.join(spoolDir, `00000000000000${n}-000000-${id}.json`);
  writeFileSync(at(1, "good-1"), JSON.stringify(event("good-1")));
  mkdirSync(at(2, "a-directory"));
  writeFileSync(at(3, "garbage"), "\u0000\u0001 not an event");
  symlinkSync(path.join(spoolDir, "gone.json"), at(4, "dangling"));
  writeFileSync(at(5, "good-5"), `${JSON.stringify(event("good-5"))}\n{"id": "torn`);
  spawnSync("mkfifo", [at(6, "a-pipe")]);
  writeFileSync(at(7, "empty"), "");
  writeFileSync(at(8, "good-8"), JSON.stringify(event("good-8")));
  writeFileSync(path.join(spoolDir, "notes.txt"), "not the spool's");
  writeFileSync(path.join(spoolDir, "backup.json"), JSON.stringify(event("not-spooled")));
  return ["spooled-good-1", "spooled-good-5", "spooled-good-8"];
}

function expectedLines(rejectedDir: string): string[] {
  const moved = (name: string) => path.join(rejectedDir, name);
  return [
    `charter: spool entry 000000000000002-000000-a-directory.json is a directory, not an event file; moved it to ${moved("000000000000002-000000-a-directory.json")}`,
    `charter: spool entry 000000000000003-000000-garbage.json is not JSON (Unexpected token '\\x00', "\\x00\\x01 not an event" is not valid JSON); moved it to ${moved("000000000000003-000000-garbage.json")}`,
    `charter: spool entry 000000000000004-000000-dangling.json is a link to nothing; moved it to ${moved("000000000000004-000000-dangling.json")}`,
    `charter: spool entry 000000000000005-000000-good-5.json had garbage after its event; the event stays queued, the file as it was is in ${moved("000000000000005-000000-good-5.json")}`,
    `charter: spool entry 000000000000006-000000-a-pipe.json is a named pipe, not an event file; moved it to ${moved("000000000000006-000000-a-pipe.json")}`,
    `charter: spool entry 000000000000007-000000-empty.json is empty; moved it to ${moved("000000000000007-000000-empty.json")}`,
  ];
}

const REJECTED = [
  "000000000000002-000000-a-directory",
  "000000000000003-000000-garbage",
  "000000000000004-000000-dangling",
  "000000000000005-000000-good-5",
  "000000000000006-000000-a-pipe",
  "000000000000007-000000-empty",
].flatMap((stem) => [`${stem}.json`, `${stem}${REASON_SUFFIX}`]);

describe("bad spool entries", () => {
  it("spool flush moves each aside with one line and delivers every event", async () => {
    const t = setup();
    const s = await t.start();
    const good = badSpool(t.spoolDir);
    const flush = await run(["spool", "flush"], "", t.env(s.port));
    expect(flush).toMatchObject({ code: EXIT.ok, stdout: "flushed 3, 0 left, 5 rejected\n" });
    expect(lines(flush.stderr)).toEqual(expectedLines(t.rejectedDir));
    expect(s.store.events.map((e) => e.id)).toEqual(good);
    expect(t.rejected().sort()).toEqual(REJECTED.sort());
    expect(
      readFileSync(
        path.join(t.rejectedDir, "000000000000002-000000-a-directory.reason.txt"),
        "utf8",
      ).split("\n")[0],
    ).toBe("is a directory, not an event file");
    expect(readdirSync(t.spoolDir).sort()).toEqual(["backup.json", "notes.txt", "rejected"]);
  }, 30_000);

  it("a hook replays past them and delivers its own event after the good ones", async () => {
    const t = setup();
    const s = await t.start();
    const good = badSpool(t.spoolDir);
    const result = await run(["hook", "Stop"], payload("stop.json"), t.env(s.port));
    expect(result).toMatchObject({ code: EXIT.ok, stdout: "" });
    expect(lines(result.stderr)).toEqual(expectedLines(t.rejectedDir));
    expect(s.store.events.map((e) => e.type)).toEqual([
      "SessionEnd",
      "SessionEnd",
      "SessionEnd",
      "Stop",
    ]);
    expect(s.store.events.map((e) => e.id).slice(0, 3)).toEqual(good);
    expect(t.spooled()).toEqual([]);
  }, 30_000);

  it("a hook whose server is down keeps its own event behind them, and the next one delivers it", async () => {
    const t = setup();
    const s = await t.start();
    const port = s.port;
    await t.stop(s);
    badSpool(t.spoolDir);
    const down = await run(["hook", "Stop"], payload("stop.json"), t.env(port));
    expect(down).toMatchObject({ code: EXIT.ok, stdout: "" });
    // Bad entries are moved aside before the first request, so they are said even while the server is down.
    expect(lines(down.stderr)).toEqual([
      ...expectedLines(t.rejectedDir),
      `charter: server unreachable (connect ECONNREFUSED 127.0.0.1:${port}); event spooled (4 waiting)`,
    ]);
    const up = await t.start(port);
    const next = await run(["hook", "SessionEnd"], payload("session-end.json"), t.env(port));
    expect(next).toMatchObject({ code: EXIT.ok, stdout: "", stderr: "" });
    expect(up.store.events.map((e) => e.type)).toEqual([
      "SessionEnd",
      "SessionEnd",
      "SessionEnd",
      "Stop",
      "SessionEnd",
    ]);
  }, 30_000);
});
