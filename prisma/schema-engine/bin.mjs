#!/usr/bin/env node
// @ts-check
// Stand-in for Prisma's native `schema-engine` binary, for machines that cannot
// download it. The Prisma CLI runs whatever PRISMA_SCHEMA_ENGINE_BINARY names
// (prisma.config.ts points it here), with the native binary's flags:
//
//   bin.mjs --version
//   bin.mjs [--datamodels <schema file>]... [--datasource <json>]            JSON-RPC server
//   bin.mjs --datasource <json> cli can-connect-to-database|create-database  one-shot
//
// The server reads JSON-RPC 2.0 requests, one JSON object per line, from stdin
// and forwards each to the same-named method of the wasm schema engine
// (@prisma/schema-engine-wasm), which reaches the database through a Prisma
// driver adapter (see adapters.mjs). stdout carries the protocol only; logs
// go to stderr as JSON lines, in the native engine's format.

import { readFileSync } from "node:fs";
import readline from "node:readline";

import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";

import { OfflineAdapterFactory, PGliteAdapterFactory, createAdapterFactory } from "./adapters.mjs";
import { createSchemaEngine, enginesHash, takePanicMessage } from "./engine.mjs";
import { UserFacingError, cliCommand, runOneShot } from "./oneshot.mjs";
import { parseDatabaseTarget } from "./url.mjs";

/** @typedef {import("./engine.mjs").SchemaEngine} SchemaEngine */
/** @typedef {ReturnType<typeof bindMigrationAwareSqlAdapterFactory>} BoundFactory */
/**
 * The params of a JSON-RPC request as the CLI sent them: passed on to the engine, which
 * deserialises and checks them, so they stay untyped here.
 * @typedef {any} RpcParams
 */
/** @typedef {{ id?: number | string | null, method?: string, params?: RpcParams }} RpcMessage */
/** Whatever was thrown, read defensively. @typedef {{ message?: unknown, stack?: unknown, code?: unknown, meta?: unknown } | null | undefined} Thrown */
/**
 * @typedef {object} Args
 * @property {string[]} datamodels
 * @property {{ url?: string, shadowDatabaseUrl?: string } | undefined} datasource
 * @property {string | undefined} cli
 * @property {boolean} version
 */

/** @param {unknown} error */
function thrown(error) {
  return /** @type {Thrown} */ (error);
}

const DEBUG = /^(1|true|yes)$/i.test(process.env.CHARTER_SCHEMA_ENGINE_DEBUG ?? "");

/**
 * Writes one log line to stderr in the native engine's JSON format.
 * @param {string} level
 * @param {string} message
 * @param {object} [fields]
 * @param {string} [target]
 */
function log(level, message, fields = {}, target = "charter_schema_engine") {
  process.stderr.write(
    JSON.stringify({
      timestamp: new Date().toISOString(),
      level,
      fields: { message, ...fields },
      target,
    }) + "\n",
  );
}

/**
 * @param {string[]} argv
 * @returns {Args}
 */
function parseArgs(argv) {
  /** @type {Args} */
  const args = { datamodels: [], datasource: undefined, cli: undefined, version: false };
  let i = 0;
  /** The value after a flag. */
  const value = () => {
    const next = argv[++i];
    if (next === undefined) throw new Error(`Missing value after ${argv[i - 1]}`);
    return next;
  };
  for (; i < argv.length; i++) {
    const arg = argv[i];
    switch (arg) {
      case "--version":
      case "-V":
        args.version = true;
        break;
      case "--datamodels":
      case "-d":
        args.datamodels.push(value());
        break;
      case "--datasource":
        args.datasource = JSON.parse(value());
        break;
      case "--enabled-preview-features":
      case "--extension-types":
        i++; // accepted for compatibility; the wasm engine takes neither
        break;
      case "cli":
        args.cli = value();
        break;
      default:
        throw new Error(`Unknown argument: ${arg}`);
    }
  }
  return args;
}

// ---------------------------------------------------------------------------
// JSON-RPC server

/** JSON-RPC error codes used by the native engine. */
const ENGINE_ERROR = 4466;
const METHOD_NOT_FOUND = -32601;
const PARSE_ERROR = -32700;

/** @param {object} message */
function send(message) {
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
}

/**
 * A panic inside wasm (a Rust panic compiles to the `unreachable` trap).
 * @param {unknown} error
 */
function isWasmPanic(error) {
  return error instanceof WebAssembly.RuntimeError;
}

/**
 * Converts anything the engine or our own code threw into the `error` member
 * of a JSON-RPC response, shaped like the native engine's: the CLI prints
 * `data.message`, prefixed by `data.error_code` when there is one.
 * @param {unknown} error
 * @param {BoundFactory["errorRegistry"]} [registry]
 */
function toRpcError(error, registry) {
  // A JavaScript error thrown inside a driver adapter reaches the engine as a
  // registry id; the engine's error then only says "External error id#N".
  // Recover the original error, which says what actually went wrong.
  const id = /(?:GenericJs|External error id)\D{0,8}(\d+)/.exec(
    String(thrown(error)?.message),
  )?.[1];
  const original = id === undefined ? undefined : registry?.consumeError(Number(id))?.error;
  const source = thrown(original ?? error);
  const panic = isWasmPanic(error);
  /** @type {{ is_panic: boolean, message: string, backtrace: unknown, error_code?: string, meta?: unknown }} */
  const data = {
    is_panic: panic,
    message: (panic && takePanicMessage()) || String(source?.message ?? source),
    backtrace: source?.stack ?? null,
  };
  const code = source?.code;
  if (typeof code === "string" && /^P\d{4}$/.test(code)) data.error_code = code;
  if (source?.meta !== undefined) data.meta = source.meta;
  return {
    code: ENGINE_ERROR,
    message: "An error happened. Check the data field for details.",
    data,
  };
}

/**
 * Diff sources that are computed without a database (the others need one, or a shadow database).
 * @param {RpcParams} target
 */
function isDatabaseFreeDiffTarget(target) {
  return target?.tag === "empty" || target?.tag === "schemaDatamodel";
}

const NO_SHADOW_FACTORY = "shadow DB must be provided through an external factory";

/**
 * Runs evaluateDataLoss / createMigration so they can find the schema the
 * migrations directory produces.
 *
 * In the wasm engine these two commands never open a shadow database
 * themselves: they read "the schema after all migrations" from a cache that
 * diagnoseMigrationHistory/devDiagnostic fills, and that cache only holds the
 * migrations that were *applied* when devDiagnostic ran. So when `migrate dev`
 * first applies pending migrations (e.g. on a brand-new database with an
 * existing migrations directory), the lookup misses and the engine fails with
 * "PostgreSQL shadow DB must be provided through an external factory" (the
 * native engine would create a shadow database on its own there). On that
 * error, run diagnoseMigrationHistory again: now that everything is applied,
 * it replays the whole migrations directory into a shadow database (through
 * our factory) and caches the result. Then retry once.
 * @template T
 * @param {SchemaEngine} engine
 * @param {RpcParams} params
 * @param {() => Promise<T>} run
 * @returns {Promise<T>}
 */
async function withMigrationSchema(engine, params, run) {
  try {
    return await run();
  } catch (error) {
    if (!String(thrown(error)?.message).includes(NO_SHADOW_FACTORY) || !params?.migrationsList)
      throw error;
    log(
      "INFO",
      "migration schema not cached after applying migrations; replaying them into a shadow database",
    );
    await engine.diagnoseMigrationHistory({
      migrationsList: params.migrationsList,
      optInToShadowDatabase: true,
      filters: params.filters,
    });
    return run();
  }
}

/** @param {Args} args */
async function serve(args) {
  /** @type {[string, string][]} */
  const files = args.datamodels.map((file) => [file, readFileSync(file, "utf8")]);
  const datamodels = files.length > 0 ? files : undefined;
  const factory = createAdapterFactory(args.datasource, log);
  const debug = (/** @type {string} */ line) => {
    // The engine's tracing output is already a JSON log line.
    if (DEBUG) process.stderr.write(line.endsWith("\n") ? line : line + "\n");
  };

  // Engines are created on first use (the engine connects as soon as it is
  // created). Requests that need no database get one on an offline adapter.
  /** @type {Map<string, { bound: BoundFactory, engine: Promise<SchemaEngine> }>} */
  const engines = new Map();
  /**
   * @param {string | undefined} method
   * @param {RpcParams} params
   */
  function engineFor(method, params) {
    const offline = method === "diff" && [params?.from, params?.to].every(isDatabaseFreeDiffTarget);
    const key = offline ? "offline" : "database";
    let entry = engines.get(key);
    if (!entry) {
      const bound = bindMigrationAwareSqlAdapterFactory(
        offline
          ? new OfflineAdapterFactory("this command ran without a database connection")
          : factory,
      );
      entry = { bound, engine: createSchemaEngine(datamodels, bound, debug) };
      engines.set(key, entry);
    }
    return entry;
  }

  /** Requests we sent to the CLI (print), waiting for its reply. */
  /** @type {Map<unknown, (reply: RpcMessage) => void>} */
  const outgoing = new Map();
  let nextOutgoingId = 1;
  /**
   * @param {string} method
   * @param {object} params
   */
  function request(method, params) {
    const id = nextOutgoingId++;
    return new Promise((resolve) => {
      outgoing.set(id, resolve);
      send({ id, method, params });
    });
  }

  /** @type {Record<string, (engine: SchemaEngine, params: RpcParams) => Promise<unknown>>} */
  const handlers = {
    // The native method name; the wasm engine calls it `version`. It always
    // reports the adapter's database; a params object without a datasource
    // would fail deserialisation.
    getDatabaseVersion: (engine, params) => engine.version(params?.datasource ? params : undefined),

    // The wasm engine returns the diff as `stdout`; the native engine instead
    // sends it to the CLI as a `print` request, and the CLI prints only those.
    async diff(engine, params) {
      const result = await engine.diff(params);
      if (result.stdout) await request("print", { content: result.stdout });
      return { ...result, stdout: null };
    },

    evaluateDataLoss: (engine, params) =>
      withMigrationSchema(engine, params, () => engine.evaluateDataLoss(params)),
    createMigration: (engine, params) =>
      withMigrationSchema(engine, params, () => engine.createMigration(params)),

    // Not implemented by the wasm engine.
    async createDatabase(_engine, params) {
      const url = params?.datasource?.url ?? args.datasource?.url;
      const target = parseDatabaseTarget(url);
      if (
        target.kind === "embedded" &&
        factory instanceof PGliteAdapterFactory &&
        factory.dir === target.dir
      ) {
        await factory.database(); // opening the directory creates it
        return { databaseName: target.dir };
      }
      await cliCommand("create-database", url, log);
      return { databaseName: target.kind === "postgres" ? target.config.database : target.dir };
    },
  };

  // Requests run one at a time, in order, like the native engine.
  let queue = Promise.resolve();
  /** @type {RpcMessage["id"] | undefined} The id of the request being handled, if any. */
  let current;
  let shuttingDown = false;

  /** @param {RpcMessage} message */
  async function handle(message) {
    const { id, method, params } = message;
    current = id;
    const { bound, engine: enginePromise } = engineFor(method, params);
    try {
      const engine = await enginePromise;
      let result;
      const handler = method === undefined ? undefined : handlers[method];
      const callable = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (engine));
      const own = method === undefined ? undefined : callable[method];
      if (handler) {
        result = await handler(engine, params);
      } else if (typeof own === "function" && method !== "free" && method !== "constructor") {
        // Call as a method: wasm-bindgen methods need `this` bound to the engine.
        result = await own.call(engine, params);
      } else {
        send({ id, error: { code: METHOD_NOT_FOUND, message: `Method not found: ${method}` } });
        return;
      }
      send({ id, result: result ?? {} });
    } catch (error) {
      const rpcError = toRpcError(error, bound.errorRegistry);
      if (DEBUG || rpcError.data.is_panic) log("ERROR", rpcError.data.message, { method });
      send({ id, error: rpcError });
      if (rpcError.data.is_panic) {
        // The wasm instance is unusable after a panic; the native engine exits 101.
        void shutdown(101, { drain: false });
      }
    } finally {
      current = undefined;
    }
  }

  /** Set when the engine must not be used any more; shutdown() then stops waiting for requests. */
  let abandon = () => {};
  /** @type {Promise<void>} */
  const abandoned = new Promise((resolve) => (abandon = resolve));
  /** @type {number | undefined} */
  let exitCode;

  /**
   * Closes the database (PGlite and pg pools keep Node alive until closed;
   * PGlite also holds its directory lock) and exits. With `drain`, requests
   * already received are answered first.
   * @param {number} code
   * @param {{ drain?: boolean }} [options]
   */
  async function shutdown(code, { drain = true } = {}) {
    if (!exitCode) exitCode = code; // a failure code wins over a clean exit
    if (!drain) abandon();
    if (shuttingDown) return;
    shuttingDown = true;
    setTimeout(() => process.exit(exitCode), 10_000).unref(); // never hang
    await Promise.race([queue.catch(() => {}), abandoned]);
    try {
      await factory.close();
    } catch (error) {
      log("WARN", `error while closing the database: ${String(thrown(error)?.message ?? error)}`);
    }
    process.exit(exitCode);
  }

  // The wasm engine reports a malformed request (e.g. a missing field) by
  // throwing from a microtask, outside the promise we await, and that request
  // never completes: answer it with the error and exit.
  onFatalError = (error) => {
    log("ERROR", String(thrown(error)?.message ?? error), { backtrace: thrown(error)?.stack });
    if (current !== undefined) send({ id: current, error: toRpcError(error) });
    void shutdown(1, { drain: false });
  };

  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (shuttingDown || !line.trim()) return;
    /** @type {RpcMessage} */
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      send({ id: null, error: { code: PARSE_ERROR, message: "Parse error" } });
      return;
    }
    if (message.method === undefined) {
      // A reply to one of our own requests.
      outgoing.get(message.id)?.(message);
      outgoing.delete(message.id);
      return;
    }
    queue = queue.then(() => handle(message));
  });
  // The CLI closes stdin when it is done (and then sends SIGTERM right away).
  lines.on("close", () => shutdown(0));
  process.on("SIGTERM", () => shutdown(0));
  process.on("SIGINT", () => shutdown(130));
}

// ---------------------------------------------------------------------------

async function main() {
  /** @type {Args} */
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    log("ERROR", String(thrown(error)?.message ?? error));
    process.exit(1);
  }

  if (args.version) {
    process.stdout.write(`schema-engine-cli ${enginesHash()}\n`);
    return;
  }

  if (args.cli) {
    // The CLI skips the first stderr line of a one-shot command (the native
    // binary's start-up log) before looking for the ERROR line, and expects
    // every line to be JSON.
    log("INFO", "Starting schema engine CLI", { git_hash: enginesHash() });
    process.exit(await runOneShot(args.cli, args.datasource, log));
  }

  await serve(args);
}

/** Set by serve(); logs in the format the CLI reads (it shows the last ERROR line when the engine exits 1). */
/** @type {(error: unknown) => void} */
let onFatalError = (error) => {
  log("ERROR", String(thrown(error)?.message ?? error), { backtrace: thrown(error)?.stack });
  process.exit(1);
};
process.on("uncaughtException", (error) => onFatalError(error));
process.on("unhandledRejection", (error) => {
  log("ERROR", `unhandled rejection: ${String(thrown(error)?.stack ?? error)}`);
});

main().catch((error) => {
  log(
    "ERROR",
    error instanceof UserFacingError ? error.message : String(thrown(error)?.stack ?? error),
  );
  process.exit(1);
});
