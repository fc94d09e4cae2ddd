// @ts-check
// Driver adapter factories handed to the wasm schema engine.
//
// The engine talks to the database only through a "migration-aware" adapter
// factory: connect() for the main database, connectToShadowDb() for the
// scratch database that `migrate dev` / `migrate diff --from-migrations`
// replay migrations into. The factories here wrap the stock adapters
// (@prisma/adapter-pg, pglite-prisma-adapter) and fix what the engine needs
// but the stock adapters get wrong when used for migrations.

import { randomUUID } from "node:crypto";

import pg from "pg";
import { ColumnTypeEnum } from "@prisma/driver-adapter-utils";
import { PrismaPg } from "@prisma/adapter-pg";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";

import { openDataDir } from "./pglite-dir.mjs";
import { parseDatabaseTarget } from "./url.mjs";

/** @typedef {import("@prisma/driver-adapter-utils").SqlDriverAdapter} SqlDriverAdapter */
/** @typedef {import("@prisma/driver-adapter-utils").SqlQuery} SqlQuery */
/** @typedef {import("@prisma/driver-adapter-utils").SqlMigrationAwareDriverAdapterFactory} MigrationAwareFactory */
/** @typedef {import("./url.mjs").DatabaseTarget} DatabaseTarget */
/** @typedef {Extract<DatabaseTarget, { kind: "postgres" }>} PostgresTarget */
/** @typedef {(level: string, message: string) => void} Log */
/**
 * What the stand-in reaches inside the stock adapters, beyond their public API
 * (adapter-pg's `performIO` and both adapters' protected `onError`).
 * @typedef {{
 *   performIO?: (query: unknown) => Promise<{ fields?: { dataTypeID: number }[] } | undefined>,
 *   onError(error: unknown): never,
 * }} AdapterInternals
 */

/**
 * The internals of a stock adapter or transaction (see AdapterInternals).
 * @param {object} queryable
 * @returns {AdapterInternals}
 */
function internals(queryable) {
  return /** @type {AdapterInternals} */ (/** @type {unknown} */ (queryable));
}

/** Prefix of the throwaway shadow databases created on a PostgreSQL server (same as Prisma's). */
export const SHADOW_DB_PREFIX = "prisma_migrate_shadow_db_";

// PostgreSQL type OIDs. The engine's introspection queries select catalog
// columns of type "char" (e.g. pg_class.relkind, OID 18) and `name` (e.g.
// pg_namespace.nspname, OID 19). @prisma/adapter-pg 7.10 has no column type
// for "char" and fails the whole query with UnsupportedNativeDataType; both
// arrive from the server as plain text, so we report them as `text` (OID 25),
// which maps to the engine's String column type the queries expect.
const CHAR_OID = 18;
const NAME_OID = 19;
const TEXT_OID = 25;

/**
 * Wraps the internal `performIO` of an adapter-pg queryable (adapter or
 * transaction) so catalog "char"/name columns are typed as text. performIO is
 * where adapter-pg gets the raw pg result, before it maps column types.
 * @template {object} Q
 * @param {Q} queryable
 * @returns {Q}
 */
function retypeCatalogColumns(queryable) {
  const inside = internals(queryable);
  const original = inside.performIO;
  if (typeof original !== "function") {
    throw new Error(
      "@prisma/adapter-pg internals changed (no performIO); the schema-engine stand-in needs updating",
    );
  }
  const performIO = original.bind(queryable);
  inside.performIO = async (query) => {
    const result = await performIO(query);
    for (const field of result?.fields ?? []) {
      if (field.dataTypeID === CHAR_OID || field.dataTypeID === NAME_OID)
        field.dataTypeID = TEXT_OID;
    }
    return result;
  };
  return queryable;
}

/**
 * Quotes an SQL identifier.
 * @param {string} name
 */
function quoteIdent(name) {
  return `"${String(name).replaceAll('"', '""')}"`;
}

/**
 * The pg.Pool options for a parsed postgres target.
 *
 * Host, port, user, password and database are passed as separate fields, never
 * as a connectionString: pg lets a connectionString override the other fields,
 * so `{ connectionString, database: shadowName }` would silently connect to the
 * main database instead of the shadow one (and replay migrations onto it).
 * @param {PostgresTarget} target
 * @param {Partial<import("./url.mjs").PgConfig>} [overrides]
 * @returns {import("pg").PoolConfig}
 */
export function poolConfig(target, overrides = {}) {
  /** @type {import("pg").PoolConfig} */
  const config = { ...target.config, ...overrides, max: 4, idleTimeoutMillis: 10_000 };
  if (target.ssl !== undefined) config.ssl = target.ssl;
  if (target.schema) {
    // Equivalent of Prisma's `?schema=`: unqualified names in migration SQL
    // resolve to this schema. Backslash-escape spaces for the options string.
    config.options = `-c search_path=${quoteIdent(target.schema).replace(/[\\ ]/g, "\\$&")}`;
  }
  return config;
}

/**
 * Opens an adapter-pg adapter on a fresh pool, with the engine-facing fixes:
 * catalog column retyping and whole-script execution.
 * @param {import("pg").PoolConfig} config
 * @param {string | undefined} schema
 * @param {() => Promise<void>} [onDispose]
 * @returns {Promise<SqlDriverAdapter>}
 */
async function openPgAdapter(config, schema, onDispose) {
  const adapter = await new PrismaPg(config, schema ? { schema } : undefined).connect();
  retypeCatalogColumns(adapter);

  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (...args) =>
    retypeCatalogColumns(await startTransaction(...args));

  // adapter-pg's executeScript splits the script on every ";" and runs the
  // pieces one by one, which breaks any migration with a ";" inside a string
  // literal or a $$-quoted function body. The native engine sends the whole
  // script in one simple-protocol query (one implicit transaction); do the same.
  const pool = adapter.underlyingDriver();
  adapter.executeScript = async (script) => {
    try {
      await pool.query(script);
    } catch (error) {
      internals(adapter).onError(error); // throws the DriverAdapterError the engine understands
    }
  };

  if (onDispose) {
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      try {
        await dispose();
      } finally {
        await onDispose();
      }
    };
  }
  return adapter;
}

/**
 * Factory for a PostgreSQL server reached over TCP or a Unix socket.
 * @implements {MigrationAwareFactory}
 */
class PostgresAdapterFactory {
  provider = /** @type {const} */ ("postgres");
  adapterName = "@prisma/adapter-pg";

  /** @param {{ target: PostgresTarget, shadowTarget?: DatabaseTarget, log: Log }} options */
  constructor({ target, shadowTarget, log }) {
    this.target = target;
    this.shadowTarget = shadowTarget;
    this.log = log;
    /** @type {Set<string>} Shadow databases created and not yet dropped, for cleanup on shutdown. */
    this.liveShadowDbs = new Set();
  }

  connect() {
    return openPgAdapter(poolConfig(this.target), this.target.schema);
  }

  async connectToShadowDb() {
    // An explicit shadowDatabaseUrl (prisma.config.ts) is used instead, emptied.
    if (this.shadowTarget) return openExternalShadow(this.shadowTarget, this.log);

    // Otherwise create a throwaway database on the same server, named with the
    // same prefix Prisma's own engine uses so leftovers are recognisable.
    const name = `${SHADOW_DB_PREFIX}${randomUUID().replaceAll("-", "_")}`;
    await this.adminQuery(`CREATE DATABASE ${quoteIdent(name)}`);
    this.liveShadowDbs.add(name);
    this.log("INFO", `created shadow database ${name}`);
    try {
      // The shadow database must be dropped only after its own pool is closed:
      // PostgreSQL refuses to drop a database that still has connections.
      // openPgAdapter's onDispose runs after the pool has ended.
      return await openPgAdapter(
        poolConfig(this.target, { database: name }),
        this.target.schema,
        () => this.dropShadowDb(name),
      );
    } catch (error) {
      await this.dropShadowDb(name);
      throw error;
    }
  }

  /** @param {string} name */
  async dropShadowDb(name) {
    if (!this.liveShadowDbs.delete(name)) return;
    try {
      await this.adminQuery(`DROP DATABASE IF EXISTS ${quoteIdent(name)}`);
      this.log("INFO", `dropped shadow database ${name}`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log("WARN", `could not drop shadow database ${name}: ${reason}`);
    }
  }

  /**
   * Runs one statement on a short-lived connection to the main database.
   * @param {string} sql
   */
  async adminQuery(sql) {
    const client = new pg.Client(poolConfig(this.target));
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  }

  async close() {
    await Promise.all([...this.liveShadowDbs].map((name) => this.dropShadowDb(name)));
  }
}

/**
 * Opens a PGlite database and wraps it in pglite-prisma-adapter, with the
 * engine-facing fixes. `closeOnDispose` is for the in-memory shadow database.
 * @param {PGlite} db
 * @param {boolean} closeOnDispose
 * @returns {Promise<SqlDriverAdapter>}
 */
async function openPGliteAdapter(db, closeOnDispose) {
  const adapter = await new PrismaPGlite(db).connect();
  // pglite-prisma-adapter 0.7.2 starts the script without awaiting it, so a
  // failing migration would be reported as applied (and the failure would
  // surface later as an unhandled rejection). Await it.
  adapter.executeScript = async (script) => {
    try {
      await db.exec(script);
    } catch (error) {
      internals(adapter).onError(error); // throws the DriverAdapterError the engine understands
    }
  };
  if (closeOnDispose) adapter.dispose = () => db.close();
  return adapter;
}

/**
 * Factory for an embedded PGlite data directory.
 * @implements {MigrationAwareFactory}
 */
export class PGliteAdapterFactory {
  provider = /** @type {const} */ ("postgres");
  adapterName = "pglite-prisma-adapter";

  /** @param {{ target: Extract<DatabaseTarget, { kind: "embedded" }>, shadowTarget?: DatabaseTarget, log: Log }} options */
  constructor({ target, shadowTarget, log }) {
    this.dir = target.dir;
    this.shadowTarget = shadowTarget;
    this.log = log;
    /** @type {Promise<PGlite> | undefined} */
    this.db = undefined;
    /** @type {Promise<File | Blob> | undefined} a dump of a blank PGlite, for shadow databases */
    this.blankSnapshot = undefined;
  }

  /**
   * The data directory is opened (and created, if missing) once, on first
   * use, and shared by every adapter the engine asks for: PGlite is
   * single-connection, and a second instance on the same directory would
   * corrupt it. It stays open until close().
   */
  database() {
    this.db ??= openDataDir(this.dir, this.log).then((db) => {
      this.log("INFO", `opened PGlite data directory ${this.dir}`);
      return db;
    });
    return this.db;
  }

  async connect() {
    // The adapter's dispose() is a no-op: the shared database stays open until close().
    return openPGliteAdapter(await this.database(), false);
  }

  async connectToShadowDb() {
    if (this.shadowTarget) return openExternalShadow(this.shadowTarget, this.log);
    // A fresh in-memory PGlite is an empty PostgreSQL of the same version.
    // Initialising one (initdb) takes ~2 s and `migrate dev` asks for up to
    // four shadow databases, so the first one is snapshotted before use and
    // later ones are loaded from that snapshot (~0.5 s).
    /** @type {PGlite} */
    let shadow;
    if (this.blankSnapshot) {
      shadow = new PGlite({ loadDataDir: await this.blankSnapshot });
    } else {
      const blank = new PGlite();
      shadow = blank;
      this.blankSnapshot = blank.waitReady.then(() => blank.dumpDataDir("none"));
      this.blankSnapshot.catch(() => (this.blankSnapshot = undefined));
      await this.blankSnapshot;
    }
    await shadow.waitReady;
    return openPGliteAdapter(shadow, true);
  }

  async close() {
    const db = await this.db?.catch(() => undefined);
    this.db = undefined;
    if (db && !db.closed) await db.close();
  }
}

// Empties a database: drops every user schema with its contents, then
// recreates `public`.
const RESET_SCRIPT = `DO $$
DECLARE s text;
BEGIN
  FOR s IN SELECT nspname FROM pg_namespace
           WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema' LOOP
    EXECUTE format('DROP SCHEMA %I CASCADE', s);
  END LOOP;
  CREATE SCHEMA public;
END
$$;`;

/**
 * Opens an explicit shadow database (datasource.shadowDatabaseUrl), emptied
 * first: the engine uses the shadow database several times per command and,
 * unlike the native engine, does not reset one it did not create.
 * @param {DatabaseTarget} target
 * @param {Log} log
 * @returns {Promise<SqlDriverAdapter>}
 */
async function openExternalShadow(target, log) {
  log(
    "INFO",
    `resetting the shadow database ${target.kind === "postgres" ? target.config.database : target.dir}`,
  );
  const adapter =
    target.kind === "postgres"
      ? await openPgAdapter(poolConfig(target), target.schema)
      : await openPGliteAdapter(await openDataDir(target.dir, log), true);
  try {
    await adapter.executeScript(RESET_SCRIPT);
  } catch (error) {
    await adapter.dispose();
    throw error;
  }
  return adapter;
}

// The query the engine runs as soon as it is created, before any command.
const STARTUP_QUERY =
  /^SELECT EXISTS\(SELECT 1 FROM pg_namespace WHERE nspname = \$1\), version\(\)/;

/**
 * A factory for commands that need no database: the engine insists on a
 * connection when it is created (it runs STARTUP_QUERY), while e.g.
 * `migrate diff --from-empty --to-schema x` never touches it afterwards. The
 * native engine connects lazily and runs such commands without a database;
 * with this factory so do we, and without creating an embedded directory as a
 * side effect. Any other query fails with `reason`.
 * @implements {MigrationAwareFactory}
 */
export class OfflineAdapterFactory {
  provider = /** @type {const} */ ("postgres");
  adapterName = "offline";

  /** @param {string} reason */
  constructor(reason) {
    this.reason = reason;
  }

  /** @returns {Promise<SqlDriverAdapter>} */
  async connect() {
    const fail = async () => {
      throw new Error(this.reason);
    };
    return {
      provider: "postgres",
      adapterName: "offline",
      getConnectionInfo: () => ({ supportsRelationJoins: true }),
      queryRaw: async (/** @type {SqlQuery} */ query) => {
        if (!STARTUP_QUERY.test(query.sql)) return fail();
        return {
          columnNames: ["exists", "version", "numeric_version"],
          columnTypes: [ColumnTypeEnum.Boolean, ColumnTypeEnum.Text, ColumnTypeEnum.Int32],
          rows: [[true, "PostgreSQL 16.0 (no database connection)", 160000]],
        };
      },
      executeRaw: fail,
      executeScript: fail,
      startTransaction: fail,
      dispose: async () => {},
    };
  }

  /** @returns {Promise<SqlDriverAdapter>} */
  async connectToShadowDb() {
    throw new Error(this.reason);
  }

  async close() {}
}

/**
 * The adapter factory for a datasource as the CLI passes it in `--datasource`.
 *
 * @param {{ url?: string, shadowDatabaseUrl?: string } | undefined} datasource
 * @param {(level: string, message: string) => void} log
 */
export function createAdapterFactory(datasource, log) {
  if (!datasource?.url) {
    return new OfflineAdapterFactory(
      "No datasource URL was given to the schema engine. Set datasource.url in prisma.config.ts (or DATABASE_URL).",
    );
  }
  const target = parseDatabaseTarget(datasource.url);
  const shadowTarget = datasource.shadowDatabaseUrl
    ? parseDatabaseTarget(datasource.shadowDatabaseUrl)
    : undefined;
  return target.kind === "postgres"
    ? new PostgresAdapterFactory({ target, shadowTarget, log })
    : new PGliteAdapterFactory({ target, shadowTarget, log });
}
