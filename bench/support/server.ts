/**
 * A Charter server for benches and load scripts: a fresh PostgreSQL database, an
 * admin, an API key with the given scopes, and `charter serve` (the production
 * build: run `npx next build` first) on a loopback port. `stop()` ends the server
 * and drops the database.
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
  stop(): Promise<void>;
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

/** Waits until GET /api/health answers 200 (the server is up and its retrieval index built). */
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

export async function startBenchServer(options: {
  port: number;
  scopes?: string[];
  signIn?: boolean;
  env?: Record<string, string>;
  /** "inherit" shows the server's errors (the fuzz bench does). */ stderr?: "inherit";
}): Promise<BenchServer> {
  const db = `charter_bench_${process.pid}_${options.port}`;
  await admin(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${db}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "charter-bench-"));
  const url = `http://127.0.0.1:${options.port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: `${PG_SERVER}/${db}`,
    CHARTER_DATA_DIR: dataDir,
    BETTER_AUTH_SECRET: randomBytes(32).toString("hex"),
    BETTER_AUTH_URL: url,
    NODE_ENV: "production",
    ...options.env,
  };
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;

  const migrated = spawnSync(process.execPath, [BIN, "db", "migrate"], {
    env,
    cwd: ROOT,
    stdio: ["ignore", "inherit", "pipe"],
    encoding: "utf8",
  });
  if (migrated.status !== 0) throw new Error(`charter db migrate failed: ${migrated.stderr}`);
  // An admin, an API key and (when asked) a sign-in link, made in a child process with the
  // server's environment: the link is the child's own and works against the same database.
  const keyScript = path.join(dataDir, "key.mts");
  writeFileSync(
    keyScript,
    [
      `import { issueSignInLink, upsertAdmin } from "@/lib/auth/bootstrap";`,
      `import { apiKeys } from "@/lib/db/api-keys";`,
      `import { closeDb } from "@/lib/db/client";`,
      `const a = await upsertAdmin("bench@charter.local", "Bench");`,
      `const k = await apiKeys.create({ name: "bench", scopes: ${JSON.stringify(options.scopes ?? ["ingest"])} }, { id: a.id, label: "bench" });`,
      `console.log(k.key);`,
      options.signIn ? `console.log(await issueSignInLink("bench@charter.local"));` : "",
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
    .slice(options.signIn ? -2 : -1);
  if (!key?.startsWith("chk_") || (options.signIn && !signInLink))
    throw new Error(
      `could not make an API key${options.signIn ? " and a sign-in link" : ""}: ${made.stderr}`,
    );

  const child = spawn(process.execPath, [BIN, "serve", "--port", String(options.port)], {
    env,
    cwd: ROOT,
    stdio: ["ignore", "pipe", options.stderr ?? "pipe"],
    detached: true,
  });
  child.stdout?.resume();
  child.stderr?.resume();
  const stop = async () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // gone
    }
    await new Promise((r) => setTimeout(r, 1_000));
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
    databaseUrl: `${PG_SERVER}/${db}`,
    dataDir,
    process: child,
    env,
    stop,
  };
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
