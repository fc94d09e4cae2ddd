/**
 * A spool directory that cannot be written: events go to the fallback directory instead,
 * and the queue is both directories, oldest first. Real files and directories throughout.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REJECTED_DIR, Spool } from "./spool";
import { ensurePrivateDir, fallbackSpoolDir } from "./spool-dirs";

const asRoot = process.getuid?.() === 0;

/** A temporary directory with a spool path blocked by a regular file, and a fallback path. */
function blocked() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "charter-fallback-"));
  const primary = path.join(dir, "spool");
  writeFileSync(primary, "a file in the way");
  const fallback = fallbackSpoolDir(dir);
  return { dir, primary, fallback, spool: new Spool(primary, fallback) };
}

const ids = (spool: Spool) =>
  spool.list().map((entry) => {
    const read = spool.read(entry);
    return read.kind === "event" ? (read.event as { id: string }).id : read.kind;
  });

describe("Spool fallback", () => {
  it("puts the event in the fallback when a file is in the way of the spool directory, and says why", () => {
    const { primary, fallback, spool } = blocked();
    const name = spool.add({ id: "event-a", type: "UserPromptSubmit" }, 1_000);
    expect(spool.fellBack).toMatch(new RegExp(`^cannot write to ${primary} \\(.*EEXIST.*\\)$`));
    expect(readdirSync(fallback)).toEqual([name]);
    expect(spool.list().map((e) => e.file)).toEqual([path.join(fallback, name)]);
    expect(spool.read(spool.list()[0]!)).toEqual({
      kind: "event",
      event: { id: "event-a", type: "UserPromptSubmit", context_delivered: false },
    });
    spool.remove(spool.list()[0]!);
    expect(spool.list()).toEqual([]);
  });

  it("falls back when a parent of the spool directory is a file", () => {
    const { dir, fallback } = blocked();
    const spool = new Spool(path.join(dir, "spool", "deeper"), fallback);
    spool.add({ id: "event-a" }, 1_000);
    expect(spool.fellBack).toMatch(/ENOTDIR/);
    expect(ids(spool)).toEqual(["event-a"]);
  });

  it.skipIf(asRoot)("falls back when the spool directory is read-only", () => {
    const { dir, fallback } = blocked();
    const readOnly = path.join(dir, "read-only");
    mkdirSync(readOnly, { mode: 0o500 });
    const spool = new Spool(readOnly, fallback);
    spool.add({ id: "event-a" }, 1_000);
    expect(spool.fellBack).toMatch(/EACCES/);
    expect(readdirSync(readOnly)).toEqual([]);
    chmodSync(readOnly, 0o700);
  });

  it("writes to the spool directory again once it can, and lists both oldest first", () => {
    const { primary, fallback, spool } = blocked();
    spool.add({ id: "event-a" }, 1_000);
    spool.add({ id: "event-b" }, 2_000);
    rmSync(primary);
    spool.add({ id: "event-c" }, 1_500); // the clock went back: still after event-b
    expect(spool.fellBack).toBeUndefined();
    spool.add({ id: "event-d" }, 3_000);
    expect(ids(spool)).toEqual(["event-a", "event-b", "event-c", "event-d"]);
    expect(spool.list().map((e) => path.dirname(e.file))).toEqual([
      fallback,
      fallback,
      primary,
      primary,
    ]);
  });

  it("moves a fallback entry the server refused to the fallback's rejected/", () => {
    const { fallback, spool } = blocked();
    spool.add({ id: "event-a" }, 1_000);
    const target = spool.reject(spool.list()[0]!, "HTTP 422: bad");
    expect(path.dirname(target)).toBe(path.join(fallback, REJECTED_DIR));
    expect(spool.list()).toEqual([]);
  });

  it("keeps an event the server refused live in the fallback's rejected/ when the spool cannot be written", () => {
    const { fallback, spool } = blocked();
    const target = spool.keepRejected({ id: "event-a" }, "HTTP 422: bad");
    expect(path.dirname(target)).toBe(path.join(fallback, REJECTED_DIR));
    expect(spool.fellBack).toMatch(/^cannot write to /);
  });

  it("takes the replay lock in the fallback when the spool directory cannot be written", async () => {
    const { fallback, spool } = blocked();
    const lock = await spool.lock(Date.now());
    expect(lock).toBeDefined();
    expect(existsSync(path.join(fallback, ".lock"))).toBe(true);
    lock!.release();
  });

  it("refuses a fallback that other users can write to, or that is a link, and names both places", () => {
    const open = blocked();
    mkdirSync(open.fallback);
    chmodSync(open.fallback, 0o777);
    expect(() => open.spool.add({ id: "event-a" })).toThrow(
      new RegExp(
        `^cannot write to ${open.primary} \\(.+\\), nor to ${open.fallback} \\(${open.fallback} can be written by other users\\)$`,
      ),
    );
    expect(readdirSync(open.fallback)).toEqual([]);

    const linked = blocked();
    const elsewhere = path.join(linked.dir, "elsewhere");
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, linked.fallback);
    expect(() => linked.spool.add({ id: "event-a" })).toThrow(/is not a directory\)$/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("makes the fallback private (0700)", () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "charter-fallback-")), "fb");
    ensurePrivateDir(dir);
    expect(readdirSync(path.dirname(dir))).toEqual(["fb"]);
    const { mode } = statSync(dir);
    expect(mode & 0o777).toBe(0o700);
  });
});
