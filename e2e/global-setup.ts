import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { E2E_PORT } from "../playwright.config";
import { STATE_FILE, type E2EState } from "./state";

const ROOT = path.resolve(import.meta.dirname, "..");

/** A fresh database for the run: a new PostgreSQL database beside DATABASE_URL's, or a new embedded one. */
async function freshDatabase(): Promise<{ env: Record<string, string>; label: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "charter-e2e-"));
  const url = process.env.DATABASE_URL?.trim();
  if (!url) return { env: { CHARTER_DATA_DIR: dataDir }, label: `embedded (${dataDir})` };
  const e2eUrl = new URL(url);
  const name = `${e2eUrl.pathname.slice(1) || "charter"}_e2e`;
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  e2eUrl.pathname = `/${name}`;
  return {
    env: { CHARTER_DATA_DIR: dataDir, DATABASE_URL: e2eUrl.toString() },
    label: `PostgreSQL database ${name}`,
  };
}

async function waitForLink(logFile: string, deadline: number): Promise<string> {
  while (Date.now() < deadline) {
    const log = readFileSync(logFile, "utf8");
    const match = /(http:\/\/\S+\/api\/auth\/magic-link\/verify\?\S+)/.exec(log);
    if (match?.[1]) return match[1];
    if (/charter: .*(failed|Cannot)/.test(log)) throw new Error(`charter serve failed:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `charter serve printed no first-admin link in time:\n${readFileSync(logFile, "utf8")}`,
  );
}

/** Starts `charter serve` on a fresh database and records the first-admin link it prints. */
export default async function globalSetup(): Promise<void> {
  const { env, label } = await freshDatabase();
  mkdirSync(path.join(ROOT, "test-results"), { recursive: true });
  const logFile = path.join(ROOT, "test-results", "e2e-server.log");
  const out = openSync(logFile, "w");
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...env,
    BETTER_AUTH_URL: `http://127.0.0.1:${E2E_PORT}`,
    NODE_ENV: "production",
  };
  if (!env.DATABASE_URL) delete serverEnv.DATABASE_URL;
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "bin/charter.mjs"), "serve", "--port", String(E2E_PORT)],
    {
      cwd: ROOT,
      env: serverEnv,
      stdio: ["ignore", out, out],
      detached: true,
    },
  );
  const firstAdminLink = await waitForLink(logFile, Date.now() + 240_000);
  const state: E2EState = { pid: child.pid ?? 0, firstAdminLink, database: label, logFile };
  writeFileSync(STATE_FILE, JSON.stringify(state));
  child.unref();
}
