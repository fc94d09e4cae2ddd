/**
 * The fuzz bench's server: one given by CHARTER_URL, or a production server it starts
 * on a fresh PostgreSQL database (as bench/agents.ts does); and the server's memory,
 * read from /proc.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
const PG_SERVER = "postgresql://postgres@127.0.0.1:5432";
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export type Target = {
  url: string;
  key: string;
  /** A signed-in admin's cookie for the dashboard pages, when there is one. */
  cookie: string | null;
  /** The process listening on the URL's port, whose memory is sampled. */
  pid: number | null;
  stop: () => Promise<void>;
};

/** Refuses anything but this machine: the fuzzer sends garbage by the thousand. */
export function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!LOOPBACK.has(host)) throw new Error(`Refusing to fuzz ${host}: the URL must be on this machine (127.0.0.1, localhost or ::1).`);
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${PG_SERVER}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The server named by CHARTER_URL / CHARTER_API_KEY (CHARTER_COOKIE, CHARTER_SERVER_PID optional). */
export function givenServer(env: NodeJS.ProcessEnv): Target {
  const url = env.CHARTER_URL!.replace(/\/+$/, "");
  assertLoopback(url);
  if (!env.CHARTER_API_KEY) throw new Error("CHARTER_URL is set but CHARTER_API_KEY is not: give a key with the ingest and read scopes.");
  const pid = env.CHARTER_SERVER_PID ? Number(env.CHARTER_SERVER_PID) : listenerPid(Number(new URL(url).port || 80));
  return { url, key: env.CHARTER_API_KEY, cookie: env.CHARTER_COOKIE ?? null, pid, stop: async () => undefined };
}

/**
 * Starts `charter serve` (production, an existing build) on a fresh database, with an
 * admin, an API key with the ingest and read scopes, and the admin's session cookie.
 */
export async function startServer(port: number): Promise<Target> {
  if (!existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    throw new Error("There is no production build (.next/BUILD_ID): run `npm run build` first, or point CHARTER_URL at a running server.");
  }
  const db = `charter_fuzz_${process.pid}`;
  await admin(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${db}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "charter-fuzz-"));
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: `${PG_SERVER}/${db}`, CHARTER_DATA_DIR: dataDir, BETTER_AUTH_SECRET: randomBytes(32).toString("hex"), BETTER_AUTH_URL: url, NODE_ENV: "production" };
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  const bin = path.join(ROOT, "bin", "charter.mjs");
  const migrated = spawnSync(process.execPath, [bin, "db", "migrate"], { env, cwd: ROOT, encoding: "utf8" });
  if (migrated.status !== 0) throw new Error(`charter db migrate failed: ${migrated.stderr}`);

  const server: ChildProcess = spawn(process.execPath, [bin, "serve", "--port", String(port)], { env, cwd: ROOT, stdio: ["ignore", "ignore", "inherit"], detached: true });
  const stop = async () => {
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      // already gone
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await admin(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  };
  try {
    await waitUp(url);
    // The key and a sign-in link are made in a child process with the server's environment;
    // the link is made by the child's own auth instance and works against the server's database.
    const script = path.join(dataDir, "key.mts");
    writeFileSync(
      script,
      [
        `import { issueSignInLink, upsertAdmin } from "@/lib/auth/bootstrap";`,
        `import { apiKeys } from "@/lib/db/api-keys";`,
        `import { closeDb } from "@/lib/db/client";`,
        `const a = await upsertAdmin("fuzz@charter.local", "Fuzz");`,
        `const k = await apiKeys.create({ name: "fuzz", scopes: ["ingest", "read"] }, { id: a.id, label: "fuzz" });`,
        `console.log(k.key);`,
        `console.log(await issueSignInLink("fuzz@charter.local", "/"));`,
        `await closeDb();`,
      ].join("\n"),
    );
    const made = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["--tsconfig", path.join(ROOT, "tsconfig.json"), script], { env, cwd: ROOT, encoding: "utf8" });
    const [key, link] = made.stdout.trim().split("\n").slice(-2);
    if (!key?.startsWith("chk_") || !link) throw new Error(`could not make an API key and a sign-in link: ${made.stderr}`);
    return { url, key, cookie: await signIn(link), pid: listenerPid(port), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitUp(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the server did not start within 5 minutes");
}

/** Follows a sign-in link and returns the session cookie it sets. */
async function signIn(link: string): Promise<string | null> {
  assertLoopback(link);
  const res = await fetch(link, { redirect: "manual" });
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]!);
  return cookies.length ? cookies.join("; ") : null;
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
