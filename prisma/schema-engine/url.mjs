// @ts-check
// Database URL handling shared by the schema-engine stand-in (bin.mjs) and
// prisma.config.ts.
//
// Two forms are supported:
//
//   postgresql://user:password@host:port/database?schema=public
//   postgres://...                      -> { kind: "postgres", config: {...} }
//
//   file:///absolute/path/to/pglite     -> { kind: "embedded", dir }
//
// A `file:` URL names an embedded PGlite data directory. The Prisma CLI hands
// the datasource URL to the schema engine without checking it against the
// schema's `provider = "postgresql"` (it only parses it to print "Datasource
// db: ... at file:///..."), and this stand-in is the engine, so `file:` works
// on every CLI path. Unlike a marker inside a postgresql:// URL, it cannot be
// mistaken for a server address by anything else that reads DATABASE_URL.
// Relative `file:` paths are rejected: the CLI starts engines in different
// working directories.

import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * @typedef {{ host: string, port: number, user: string | undefined,
 *             password: string | undefined, database: string }} PgConfig
 * @typedef {{ kind: "postgres", config: PgConfig, schema?: string, ssl?: boolean | object }
 *         | { kind: "embedded", dir: string }} DatabaseTarget
 */

/**
 * Replaces the password of a URL with `****` so it can go into error messages.
 * @param {unknown} url
 */
export function redactUrl(url) {
  return String(url).replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*:)[^@/?#]*@/i, "$1****@");
}

/**
 * @param {unknown} url
 * @param {string} [reason]
 */
function invalid(url, reason) {
  return new Error(
    `DATABASE_URL is not a valid postgresql:// URL: ${redactUrl(url) || "(empty)"}${reason ? ` (${reason})` : ""}. ` +
      "Use postgresql://user:password@host:port/database, or a file:///absolute/path URL for an embedded PGlite directory.",
  );
}

/**
 * @param {string} component
 * @param {string} url
 * @param {string} what
 */
function decode(component, url, what) {
  try {
    return decodeURIComponent(component);
  } catch {
    throw invalid(url, `bad percent-encoding in the ${what}`);
  }
}

/**
 * Parses a datasource URL into what the schema engine needs to connect.
 *
 * @param {string} url
 * @returns {DatabaseTarget}
 */
export function parseDatabaseTarget(url) {
  if (typeof url !== "string" || url.trim() === "") {
    throw invalid("");
  }
  let parsed;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw invalid(url);
  }

  if (parsed.protocol === "file:") {
    // WHATWG URL parsing would silently turn `file:./x` into `/x`.
    if (!/^file:\//i.test(url.trim())) {
      throw invalid(url, "a file: URL needs an absolute path, e.g. file:///var/lib/charter/pglite");
    }
    if (parsed.host !== "" && parsed.host !== "localhost") {
      throw invalid(
        url,
        "a file: URL must name a local absolute path, e.g. file:///var/lib/charter/pglite",
      );
    }
    let dir;
    try {
      dir = fileURLToPath(parsed);
    } catch {
      throw invalid(url, "a file: URL must name a local absolute path");
    }
    // Normalise away a trailing slash so the same directory always yields the same target.
    return { kind: "embedded", dir: path.resolve(dir) };
  }

  if (parsed.protocol !== "postgresql:" && parsed.protocol !== "postgres:") {
    throw invalid(url, `unsupported protocol "${parsed.protocol}"`);
  }

  const params = parsed.searchParams;
  // libpq-style `?host=/var/run/postgresql` selects a Unix socket directory.
  const host =
    params.get("host") ?? decode(parsed.hostname, url, "host").replace(/^\[(.*)\]$/, "$1");
  if (!host) throw invalid(url, "it has no host");

  let port = 5432;
  if (parsed.port !== "") {
    port = Number(parsed.port);
    if (!Number.isInteger(port) || port <= 0 || port > 65535) throw invalid(url, "bad port");
  }

  const database = decode(parsed.pathname.replace(/^\//, ""), url, "database name");
  if (database.includes("/")) throw invalid(url, "the database name must not contain '/'");

  /** @type {DatabaseTarget} */
  const target = {
    kind: "postgres",
    config: {
      host,
      port,
      user: parsed.username ? decode(parsed.username, url, "user name") : undefined,
      password: parsed.password ? decode(parsed.password, url, "password") : undefined,
      // Prisma defaults the database to "postgres" when the path is empty.
      database: database || "postgres",
    },
  };

  const schema = params.get("schema");
  if (schema) target.schema = schema;

  // pg cannot fall back from TLS to plain, so prefer/allow mean plain here.
  const sslmode = params.get("sslmode");
  if (sslmode === "require") target.ssl = { rejectUnauthorized: false }; // encrypt, trust any certificate
  if (sslmode === "verify-ca" || sslmode === "verify-full") target.ssl = true;
  return target;
}

/**
 * The datasource URL for an embedded PGlite data directory (the inverse of
 * parseDatabaseTarget for `kind: "embedded"`).
 *
 * @param {string} dir a directory path, resolved against the current directory
 */
export function embeddedDatabaseUrl(dir) {
  return pathToFileURL(path.resolve(dir)).href;
}
