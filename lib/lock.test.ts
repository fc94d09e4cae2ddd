import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { acquireLock, acquireLockSync, lockHolder } from "./lock.mjs";

const dir = mkdtempSync(path.join(os.tmpdir(), "charter-lock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const lockFile = () => path.join(dir, `l${n++}.lock`);
const LOCK_MODULE = path.resolve(import.meta.dirname, "lock.mjs");

/** A pid that is no process: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], {
    encoding: "utf8",
  });
  return Number(child.stdout.trim());
}

describe("lock files (lib/lock.mjs)", () => {
  it("lets one holder in at a time; the file holds its pid; release frees it", async () => {
    const file = lockFile();
    const first = await acquireLock(file);
    expect(first).toBeDefined();
    expect(readFileSync(file, "utf8")).toBe(String(process.pid));
    expect(lockHolder(file)).toBe(process.pid);
    expect(await acquireLock(file, { deadline: Date.now() + 60 })).toBeUndefined();
    expect(acquireLockSync(file, { deadline: Date.now() + 60 })).toBeUndefined();
    first!.release();
    expect(existsSync(file)).toBe(false);
    expect(lockHolder(file)).toBeNull();
    const second = acquireLockSync(file);
    expect(second).toBeDefined();
    second!.release();
  });

  it("takes over a lock whose holder is gone, or that holds no pid", async () => {
    const file = lockFile();
    writeFileSync(file, String(deadPid()));
    expect(lockHolder(file)).toBeNull();
    const lock = await acquireLock(file);
    expect(lock).toBeDefined();
    expect(readFileSync(file, "utf8")).toBe(String(process.pid));
    lock!.release();
    writeFileSync(file, "");
    const again = acquireLockSync(file);
    expect(again).toBeDefined();
    again!.release();
  });

  it("with a stale limit, takes over a live holder's lock left untouched; touch() keeps it", async () => {
    const file = lockFile();
    const first = await acquireLock(file, { staleMs: 1_000 });
    const past = new Date(Date.now() - 5_000);
    utimesSync(file, past, past);
    first!.touch();
    expect(await acquireLock(file, { staleMs: 1_000 })).toBeUndefined();
    utimesSync(file, past, past);
    expect(await acquireLock(file)).toBeUndefined();
    const second = await acquireLock(file, { staleMs: 1_000 });
    expect(second).toBeDefined();
    // The first holder lost it: its release leaves the second's lock in place.
    first!.release();
    expect(lockHolder(file)).toBe(process.pid);
    second!.release();
    expect(existsSync(file)).toBe(false);
  });

  it("waits for the holder until the deadline, saying once who holds it", async () => {
    const file = lockFile();
    const first = await acquireLock(file);
    const waits: number[] = [];
    setTimeout(() => first!.release(), 150);
    const started = Date.now();
    const second = await acquireLock(file, {
      deadline: Date.now() + 5_000,
      onWait: (pid) => waits.push(pid),
    });
    expect(second).toBeDefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(waits).toEqual([process.pid]);
    second!.release();
  });

  it("excludes another process, and is freed when that process exits without releasing", async () => {
    const file = lockFile();
    const script = `import { acquireLock } from ${JSON.stringify(LOCK_MODULE)};
      const lock = await acquireLock(${JSON.stringify(file)});
      console.log(lock ? "held" : "busy");
      process.stdin.on("data", () => process.exit(0));`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    expect(lockHolder(file)).toBe(child.pid);
    expect(await acquireLock(file, { deadline: Date.now() + 100 })).toBeUndefined();
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.stdin.write("exit\n");
    await exited;
    expect(existsSync(file)).toBe(false);
    const lock = await acquireLock(file);
    expect(lock).toBeDefined();
    lock!.release();
  });

  it("gives a contended lock to exactly one of many takers", async () => {
    const file = lockFile();
    writeFileSync(file, String(deadPid()));
    // Each taker holds on until all have answered (its stdin closes), however late it started.
    const script = `import { acquireLock } from ${JSON.stringify(LOCK_MODULE)};
      const lock = await acquireLock(${JSON.stringify(file)});
      console.log(lock ? "held" : "busy");
      process.stdin.on("end", () => process.exit(0)).resume();`;
    const takers = Array.from({ length: 6 }, () =>
      spawn(process.execPath, ["--input-type=module", "-e", script], {
        stdio: ["pipe", "pipe", "inherit"],
      }),
    );
    const exits = takers.map((child) => new Promise((resolve) => child.on("exit", resolve)));
    const results = await Promise.all(
      takers.map(
        (child) =>
          new Promise<string>((resolve) => {
            let out = "";
            child.stdout.on("data", (chunk: Buffer) => {
              out += chunk.toString();
              if (out.includes("\n")) resolve(out.trim());
            });
            child.on("exit", () => resolve(out.trim()));
          }),
      ),
    );
    for (const child of takers) child.stdin.end();
    await Promise.all(exits);
    expect(results.filter((r) => r === "held")).toHaveLength(1);
    expect(results.filter((r) => r === "busy")).toHaveLength(5);
  });
});
