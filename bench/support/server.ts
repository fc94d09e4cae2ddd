/**
 * A Charter server for benches and load scripts: a fresh PostgreSQL database, an
 * admin, an API key with the given scopes, and `charter serve` (the production
 * build in CHARTER_NEXT_DIST_DIR: run `npx next build` first) on a loopback port.
 * `stop()` ends the server (it drains on SIGTERM) and drops the database. A second
 * instance on the same database (startSecondInstance) and bare `charter serve`
 * processes on a database of your own (freshDatabase, instanceEnv, spawnServe) are
 * what the scale-out tests and bench/two-instances.ts use.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const BIN = path.join(ROOT, "bin", "charter.mjs");
export const PG_SERVER = "postgresql://postgres@127.0.0.1:5432";

export type BenchServer = {
  url: string;
  key: string;
  /** A one-time sign-in link for the admin, when asked for with `signIn`. */
  signInLink: string | null;
  databaseUrl: string;
  dataDir: string;
  process: ChildProcess;
  env: NodeJS.ProcessEnv;
  /** What the server wrote to stdout and stderr so far (when they are piped). */
  output(): string;
  /** Ends the server (SIGTERM to its process group, waiting for it to exit) and drops the database. */
  stop(): Promise<void>;
};

/** A `charter serve` process: its output, and a stop that waits for it to exit. */
export type ServeProcess = {
  url: string;
  process: ChildProcess;
  env: NodeJS.ProcessEnv;
  output(): string;
  /** Sends `signal` to the server's process group; resolves with its exit code (null: killed) once it exited. */
  signal(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
  exited: Promise<number | null>;
};

export async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${PG_SERVER}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Waits until GET /api/health answers 200 (the server is up and its ingestion path warm). */
export async function waitHealthy(url: string, timeoutMs = 300_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return performance.now() - started;
    } catch {
      // not up yet
    }
    if (performance.now() - started > timeoutMs)
      throw new Error(`the server at ${url} did not become healthy`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A fresh, empty PostgreSQL database on the local server; returns its URL. */
export async function freshDatabase(name: string): Promise<string> {
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  return `${PG_SERVER}/${name}`;
}

/** The environment of one instance: the database, secret and public URL given, its own data directory. */
export function instanceEnv(options: {
  databaseUrl: string;
  secret: string;
  publicUrl: string;
  env?: Record<string, string>;
}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    CHARTER_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "charter-bench-")),
    BETTER_AUTH_SECRET: options.secret,
    BETTER_AUTH_URL: options.publicUrl,
    NODE_ENV: "production",
    ...options.env,
  };
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  return env;
}

/**
 * Spawns `charter serve` (which migrates, then runs `next start` on the build in
 * CHARTER_NEXT_DIST_DIR) on a loopback port, in a process group of its own; its output
 * is kept for `output()` (or passed through when `stderr` is "inherit"). Does not wait
 * for it to be healthy.
 */
export function spawnServe(options: {
  port: number;
  env: NodeJS.ProcessEnv;
  stderr?: "inherit";
}): ServeProcess {
  const child = spawn(process.execPath, [BIN, "serve", "--port", String(options.port)], {
    env: options.env,
    cwd: ROOT,
    stdio: ["ignore", "pipe", options.stderr ?? "pipe"],
    detached: true,
  });
  const chunks: string[] = [];
  child.stdout?.on("data", (c: Buffer) => chunks.push(c.toString()));
  child.stderr?.on("data", (c: Buffer) => chunks.push(c.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code, sig) => resolve(sig ? null : code)),
  );
  return {
    url: `http://127.0.0.1:${options.port}`,
    process: child,
    env: options.env,
    output: () => chunks.join(""),
    exited,
    async signal(signal = "SIGTERM", timeoutMs = 60_000) {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // gone
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((r) => (timer = setTimeout(() => r("late"), timeoutMs)));
      const code = await Promise.race([exited, late]);
      clearTimeout(timer);
      if (code !== "late") return code;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // gone
      }
      return exited;
    },
  };
}

/** An admin, an API key with `scopes` and (when asked) a sign-in link, made by a child process with the server's environment. */
function makeKey(env: NodeJS.ProcessEnv, scopes: string[], signIn: boolean) {
  const keyScript = path.join(env.CHARTER_DATA_DIR!, "key.mts");
  writeFileSync(
    keyScript,
    [
      `import { issueSignInLink, upsertAdmin } from "@/lib/auth/bootstrap";`,
      `import { apiKeys } from "@/lib/db/api-keys";`,
      `import { closeDb } from "@/lib/db/client";`,
      `const a = await upsertAdmin("bench@charter.local", "Bench");`,
      `const k = await apiKeys.create({ name: "bench", scopes: ${JSON.stringify(scopes)} }, { id: a.id, label: "bench" });`,
      `console.log(k.key);`,
      signIn ? `console.log(await issueSignInLink("bench@charter.local"));` : "",
      `await closeDb();`,
    ].join("\n"),
  );
  const made = spawnSync(
    path.join(ROOT, "node_modules/.bin/tsx"),
    ["--tsconfig", path.join(ROOT, "tsconfig.json"), keyScript],
    { env, cwd: ROOT, encoding: "utf8" },
  );
  const [key, signInLink = null] = made.stdout
    .trim()
    .split("\n")
    .slice(signIn ? -2 : -1);
  if (!key?.startsWith("chk_") || (signIn && !signInLink))
    throw new Error(
      `could not make an API key${signIn ? " and a sign-in link" : ""}: ${made.stderr}`,
    );
  return { key, signInLink };
}

export async function startBenchServer(options: {
  port: number;
  scopes?: string[];
  signIn?: boolean;
  env?: Record<string, string>;
  /** "inherit" shows the server's errors (the fuzz bench does). */ stderr?: "inherit";
}): Promise<BenchServer> {
  const db = `charter_bench_${process.pid}_${options.port}`;
  const databaseUrl = await freshDatabase(db);
  const url = `http://127.0.0.1:${options.port}`;
  const env = instanceEnv({
    databaseUrl,
    secret: randomBytes(32).toString("hex"),
    publicUrl: url,
    env: options.env,
  });

  const migrated = spawnSync(process.execPath, [BIN, "db", "migrate"], {
    env,
    cwd: ROOT,
    stdio: ["ignore", "inherit", "pipe"],
    encoding: "utf8",
  });
  if (migrated.status !== 0) throw new Error(`charter db migrate failed: ${migrated.stderr}`);
  const { key, signInLink } = makeKey(env, options.scopes ?? ["ingest"], options.signIn ?? false);

  const served = spawnServe({ port: options.port, env, stderr: options.stderr });
  const stop = async () => {
    await served.signal("SIGTERM");
    await admin(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  };
  try {
    await waitHealthy(url);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    key,
    signInLink,
    databaseUrl,
    dataDir: env.CHARTER_DATA_DIR!,
    process: served.process,
    env,
    output: served.output,
    stop,
  };
}

/**
 * A second instance of a bench server: the same database, secret and public URL, its own
 * data directory and port (as docs/deployment.md runs instances behind a balancer).
 * `stop()` ends this instance only; the first one's stop drops the database.
 */
export async function startSecondInstance(
  first: BenchServer,
  port: number,
): Promise<ServeProcess & { stop(): Promise<void> }> {
  const env = instanceEnv({
    databaseUrl: first.databaseUrl,
    secret: first.env.BETTER_AUTH_SECRET!,
    publicUrl: first.env.BETTER_AUTH_URL!,
    env: first.env.NODE_OPTIONS ? { NODE_OPTIONS: first.env.NODE_OPTIONS } : {},
  });
  const served = spawnServe({ port, env });
  const stop = async () => {
    await served.signal("SIGTERM");
  };
  try {
    await waitHealthy(served.url);
  } catch (error) {
    await stop();
    throw error;
  }
  return { ...served, stop };
}

/** The pid of this user's process listening on a TCP port, from /proc (null when not found). */
export function listenerPid(port: number): number | null {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is HEX_IP:HEX_PORT; state 0A is LISTEN; column 9 is the inode.
      if (cols[1]?.endsWith(`:${hexPort}`) && cols[3] === "0A" && cols[9]) inodes.add(cols[9]);
    }
  }
  if (inodes.size === 0) return null;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${entry}/fd/${fd}`);
        if (target.startsWith("socket:[") && inodes.has(target.slice(8, -1))) return Number(entry);
      } catch {
        // closed meanwhile
      }
    }
  }
  return null;
}

/** A process's resident memory in bytes (VmRSS), or null when it is gone. */
export function rssBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}
