import { readFileSync } from "node:fs";
import path from "node:path";

export type E2EState = { pid: number; firstAdminLink: string; database: string; logFile: string };

export const STATE_FILE = path.resolve(import.meta.dirname, "..", "test-results", "e2e-state.json");

export function readState(): E2EState {
  return JSON.parse(readFileSync(STATE_FILE, "utf8")) as E2EState;
}

/** Storage state of the first admin, saved by auth.setup.ts for every spec. */
export const ADMIN_STATE = path.resolve(import.meta.dirname, "..", "test-results", "e2e-admin-state.json");
