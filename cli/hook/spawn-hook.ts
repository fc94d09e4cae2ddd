/**
 * For the hook's tests: the bundled hook (dist/hook.cjs) spawned the way Claude Code runs
 * it, a temporary home and spool per test, and the scripted events server.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startEventsServer, type EventsServer, type EventsStore } from "@/test/events-server";
import type { DialectName } from "./dialects";
import type { HookEventName } from "./events";
import { Spool } from "./spool";
import { fallbackSpoolDir } from "./spool-dirs";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const HOOK = path.join(ROOT, "dist", "hook.cjs");
const FIXTURES = path.join(import.meta.dirname, "fixtures");
export const TRANSCRIPT = path.join(FIXTURES, "transcript.jsonl");
export const API_KEY = "test-key-0123456789";

/** One session's hook calls, with the fixture payload of each. */
export const CALLS: [HookEventName, string][] = [
  ["UserPromptSubmit", "user-prompt-submit.json"],
  ["PostToolUse", "post-tool-use-bash.json"],
  ["PostToolUse", "post-tool-use-edit.json"],
  ["Stop", "stop.json"],
  ["SessionEnd", "session-end.json"],
];

/** A Claude Code fixture for each event Charter takes (CALLS is one session's, without SessionStart). */
export const CLAUDE_FIXTURES: Record<HookEventName, string> = {
  SessionStart: "session-start.json",
  UserPromptSubmit: "user-prompt-submit.json",
  PostToolUse: "post-tool-use-bash.json",
  Stop: "stop.json",
  SessionEnd: "session-end.json",
};

/** A fixture payload as Claude Code sends it, pointing at the fixture transcript; `changes` override its fields. */
export function payload(name: string, changes: Record<string, unknown> = {}): string {
  const data = JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8")) as Record<
    string,
    unknown
  >;
  return JSON.stringify({ ...data, transcript_path: TRANSCRIPT, ...changes });
}

/** Another agent's fixture payload (fixtures/<agent>/<name>, its "$source" kept), `changes` overriding its fields. */
export function agentFixture(
  agent: Exclude<DialectName, "claude">,
  name: string,
  changes: Record<string, unknown> = {},
): Record<string, unknown> {
  const data = JSON.parse(readFileSync(path.join(FIXTURES, agent, name), "utf8")) as Record<
    string,
    unknown
  >;
  return { ...data, ...changes };
}

/** The context the scripted server gives a SessionStart, as setup() starts it. */
export const sessionContext = (sessionId: string) => `Core principles for ${sessionId}`;

export function buildHook(): { status: number | null; stderr: string } {
  return spawnSync(process.execPath, [path.join(ROOT, "scripts", "build-hook.mjs")], {
    encoding: "utf8",
  });
}

export type Run = { code: number | null; stdout: string; stderr: string; ms: number };

/**
 * Spawns the bundle (asynchronously: the scripted server answers from this process).
 * `stdinAfterMs` holds the payload back that long, as a slow pipe would; `stdinOpen`
 * writes it and never closes stdin, as a stuck writer would.
 */
export function run(
  args: string[],
  input: string,
  env: Record<string, string>,
  options: { stdinAfterMs?: number; stdinOpen?: boolean } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // Only what the test gives: no developer's CHARTER_* settings leak into the hook.
    const childEnv: NodeJS.ProcessEnv = { NODE_ENV: "test", HOME: env.HOME ?? os.tmpdir(), ...env };
    const child = spawn(process.execPath, [HOOK, ...args], { env: childEnv, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
    child.stdin.on("error", () => {
      // the hook may exit before reading stdin; that is its right
    });
    if (options.stdinOpen) child.stdin.write(input);
    else if (options.stdinAfterMs) setTimeout(() => child.stdin.end(input), options.stdinAfterMs);
    else child.stdin.end(input);
  });
}

/** Runs a hook command line through `sh -c`, as Claude Code runs the commands in its settings. */
export function runShell(
  command: string,
  input: string,
  env: Record<string, string>,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const childEnv: NodeJS.ProcessEnv = { NODE_ENV: "test", HOME: env.HOME ?? os.tmpdir(), ...env };
    const child = spawn("sh", ["-c", command], { env: childEnv, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
  });
}

export const lines = (text: string) => text.split("\n").filter(Boolean);

const servers = new Set<EventsServer>();

/** Closes every server the tests started; for afterEach. */
export async function closeServers(): Promise<void> {
  await Promise.all([...servers].map((s) => s.close()));
  servers.clear();
}

/**
 * A temporary home with a spool directory, and a scripted server that takes API_KEY. The
 * hook's temporary directory (TMPDIR) is the home too, so its fallback spool is `fallbackDir`.
 */
export function setup(options: { store?: EventsStore } = {}) {
  const own = new Set<EventsServer>();
  const stop = async (server: EventsServer) => {
    await server.close();
    servers.delete(server);
    own.delete(server);
  };
  const dir = mkdtempSync(path.join(os.tmpdir(), "charter-hook-"));
  const spoolDir = path.join(dir, "spool");
  const fallbackDir = fallbackSpoolDir(dir);
  const rejectedDir = path.join(spoolDir, "rejected");
  const spooled = () => new Spool(spoolDir, fallbackDir).list();
  return {
    dir,
    spoolDir,
    fallbackDir,
    rejectedDir,
    /** The spool's entries, oldest first. */
    spooled: () => spooled().map((e) => e.name),
    spooledEvents: () =>
      spooled().map(
        (e) => JSON.parse(readFileSync(e.file, "utf8")) as Record<string, unknown> & { id: string },
      ),
    spooledIds: () =>
      spooled().map((e) => (JSON.parse(readFileSync(e.file, "utf8")) as { id: string }).id),
    /** Everything in rejected/, sorted. */
    rejected: () => (existsSync(rejectedDir) ? readdirSync(rejectedDir).sort() : []),
    async start(port = 0) {
      const server = await startEventsServer({
        port,
        store: options.store,
        behaviour: {
          apiKey: API_KEY,
          context: (e) => `Principles for: ${e.prompt.slice(0, 20)}`,
          sessionContext: (e) => sessionContext(e.session_id),
        },
      });
      servers.add(server);
      own.add(server);
      return server;
    },
    stop,
    /**
     * Closes the servers this setup started, for a test that runs beside others
     * (`describe.concurrent`), where closeServers would close theirs too.
     */
    close: async () => void (await Promise.all([...own].map(stop))),
    env(port: number): Record<string, string> {
      // HOME in the temporary directory keeps a developer's ~/.config/charter/hook.json out of the test.
      return {
        CHARTER_URL: `http://127.0.0.1:${port}`,
        CHARTER_API_KEY: API_KEY,
        CHARTER_SPOOL_DIR: spoolDir,
        HOME: dir,
        TMPDIR: dir,
      };
    },
  };
}
