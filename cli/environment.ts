import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { migrationNames } from "@/lib/db/migration-state";
import { env, EnvError, resetEnv, type Env } from "@/lib/env";
import { CliError } from "./errors";

// What every command needs before it does anything, and nothing that loads a database
// driver: `charter retrieve`'s fast bundle (cli/retrieve-fast.ts) is built from it.

/** The repository root (where package.json, prisma.config.ts and .next live). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Validates the environment, or stops with one line per bad variable. */
export function loadEnv(): Env {
  resetEnv();
  try {
    return env();
  } catch (error) {
    if (error instanceof EnvError) throw new CliError(error.message);
    throw error;
  }
}

/** The base URL for links: filled in when BETTER_AUTH_URL is unset, or over it when `baseUrlWins`. */
export type BaseUrlDefault = { baseUrl?: string; baseUrlWins?: boolean };

/**
 * Fills in what a zero-config start needs: a data directory, a session secret kept
 * in it (generated once, readable only by its owner), and the base URL. Variables
 * already set win. Returns the validated environment.
 */
export function prepareEnv(defaults: BaseUrlDefault = {}): Env {
  const first = loadEnv();
  const dataDir = path.resolve(ROOT, first.CHARTER_DATA_DIR);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  process.env.CHARTER_DATA_DIR = dataDir;
  if (!first.BETTER_AUTH_SECRET) {
    const file = path.join(dataDir, "secret");
    if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
    process.env.BETTER_AUTH_SECRET = readFileSync(file, "utf8").trim();
  }
  if (defaults.baseUrl && (defaults.baseUrlWins || !first.BETTER_AUTH_URL))
    process.env.BETTER_AUTH_URL = defaults.baseUrl;
  process.env.NEXT_TELEMETRY_DISABLED = "1";
  return loadEnv();
}

/** Where the migrations are, in the repository. */
export const MIGRATIONS_DIR = path.join(ROOT, "prisma", "migrations");

/** The migrations in prisma/migrations, by directory name. */
export function localMigrations(): string[] {
  return migrationNames(MIGRATIONS_DIR);
}
