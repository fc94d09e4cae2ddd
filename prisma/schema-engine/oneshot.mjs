// @ts-check
// The native binary's one-shot subcommands (`schema-engine --datasource <json>
// cli <command>`), which the Prisma CLI runs before `migrate dev`, `migrate
// deploy`, `migrate reset` and `db push` to check that the database exists and
// create it when it does not. They exit 0 on success; on failure they log an
// ERROR line with an `error_code` to stderr and exit 1, which the CLI parses.

import { existsSync, rmSync } from "node:fs";
import path from "node:path";

import pg from "pg";

import { poolConfig } from "./adapters.mjs";
import { lockDataDir, openDataDir } from "./pglite-dir.mjs";
import { parseDatabaseTarget } from "./url.mjs";

/** @typedef {import("./url.mjs").DatabaseTarget} DatabaseTarget */
/** @typedef {Extract<DatabaseTarget, { kind: "postgres" }>} PostgresTarget */
/** @typedef {(level: string, message: string) => void} Log */

/** An error carrying one of Prisma's P1xxx codes. */
export class UserFacingError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** @typedef {{ host?: string, port?: number, user?: string, database?: string }} Where */

/** @param {Where} config */
function location(config) {
  return config.host?.startsWith("/") ? `unix:${config.host}` : `${config.host}:${config.port}`;
}

/**
 * Maps a pg connection error to the user-facing error the native engine reports.
 * @param {unknown} error
 * @param {Where} config
 */
export function pgConnectionError(error, config) {
  const at = location(config);
  switch (/** @type {NodeJS.ErrnoException} */ (error)?.code) {
    case "ECONNREFUSED":
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "ENOENT": // Unix socket missing
      return new UserFacingError(
        "P1001",
        `Can't reach database server at \`${at}\`\n\nPlease make sure your database server is running at \`${at}\`.`,
      );
    case "3D000":
      return new UserFacingError(
        "P1003",
        `Database \`${config.database}\` does not exist on the database server at \`${at}\`.`,
      );
    case "28P01":
    case "28000":
      return new UserFacingError(
        "P1000",
        `Authentication failed against database server, the provided database credentials for \`${config.user ?? ""}\` are not valid.\n\n` +
          `Please make sure to provide valid database credentials for the database server at \`${at}\`.`,
      );
    case "42501":
      return new UserFacingError(
        "P1010",
        `User \`${config.user ?? ""}\` was denied access on the database \`${config.database}\``,
      );
    default:
      return error;
  }
}

/**
 * @template T
 * @param {PostgresTarget} target
 * @param {Partial<import("./url.mjs").PgConfig>} overrides
 * @param {(client: pg.Client) => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withClient(target, overrides, fn) {
  const config = poolConfig(target, overrides);
  const client = new pg.Client(config);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw pgConnectionError(error, config);
  }
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * True when `dir` holds an initialised PostgreSQL data directory.
 * @param {string} dir
 */
function isDataDir(dir) {
  return existsSync(path.join(dir, "PG_VERSION"));
}

/** @param {DatabaseTarget} target */
async function canConnect(target) {
  if (target.kind === "postgres") {
    await withClient(target, {}, (client) => client.query("SELECT 1"));
    return;
  }
  // A missing embedded directory reads as "database does not exist" (P1003),
  // so the CLI goes on to `create-database` exactly as for a server.
  if (!isDataDir(target.dir)) {
    throw new UserFacingError(
      "P1003",
      `Database \`${path.basename(target.dir)}\` does not exist at \`${target.dir}\`.`,
    );
  }
}

/**
 * @param {DatabaseTarget} target
 * @param {Log} log
 */
async function createDatabase(target, log) {
  if (target.kind === "postgres") {
    const { database } = target.config;
    // Connect to the maintenance database, as the native engine does.
    const maintenance = database === "postgres" ? "template1" : "postgres";
    await withClient(target, { database: maintenance }, async (client) => {
      try {
        await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
      } catch (error) {
        // 42P04: already exists
        if (/** @type {{ code?: string }} */ (error).code !== "42P04") throw error;
      }
    });
    return database;
  }
  const db = await openDataDir(target.dir, log); // initialises the directory
  await db.close();
  return path.basename(target.dir);
}

/**
 * @param {DatabaseTarget} target
 * @param {Log} log
 */
async function dropDatabase(target, log) {
  if (target.kind === "postgres") {
    const { database } = target.config;
    const maintenance = database === "postgres" ? "template1" : "postgres";
    await withClient(target, { database: maintenance }, (client) =>
      client.query(`DROP DATABASE IF EXISTS "${database.replaceAll('"', '""')}"`),
    );
    return;
  }
  if (!isDataDir(target.dir)) return;
  const release = await lockDataDir(target.dir, log);
  try {
    rmSync(target.dir, { recursive: true, force: true });
  } finally {
    release();
  }
}

/**
 * Runs one `cli <command>` against a datasource URL; throws on failure.
 *
 * @param {string} command
 * @param {string | undefined} url
 * @param {(level: string, message: string, fields?: object) => void} log
 */
export async function cliCommand(command, url, log) {
  if (!url) throw new Error("`cli` commands need --datasource with a url");
  const target = parseDatabaseTarget(url);
  switch (command) {
    case "can-connect-to-database":
      await canConnect(target);
      log("INFO", "Connection successful");
      return;
    case "create-database":
      log("INFO", `Database '${await createDatabase(target, log)}' was successfully created.`);
      return;
    case "drop-database":
      await dropDatabase(target, log);
      log("INFO", "The database was successfully dropped.");
      return;
    default:
      throw new Error(`Unknown cli command: ${command}`);
  }
}

/**
 * Runs one `cli <command>` as the process's whole job and returns its exit code.
 *
 * @param {string} command
 * @param {{ url?: string } | undefined} datasource
 * @param {(level: string, message: string, fields?: object, target?: string) => void} log
 */
export async function runOneShot(command, datasource, log) {
  try {
    await cliCommand(command, datasource?.url, log);
    return 0;
  } catch (error) {
    // The CLI looks for this exact shape: level ERROR, target
    // schema_engine::logger, fields.error_code + fields.message.
    log(
      "ERROR",
      error instanceof Error ? error.message : String(error),
      error instanceof UserFacingError ? { error_code: error.code } : {},
      "schema_engine::logger",
    );
    return 1;
  }
}
