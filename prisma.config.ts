// Prisma 7 CLI configuration for Charter.
//
// Database URL: DATABASE_URL when set (postgresql://user:password@host:port/db),
// otherwise the embedded PGlite data directory
// `${CHARTER_DATA_DIR ?? ".charter"}/pglite`, resolved against the current
// directory and written as a `file:` URL, e.g. file:///home/me/charter/.charter/pglite.
// The Prisma CLI hands the URL to the schema engine unchecked; our stand-in
// engine (prisma/schema-engine/bin.mjs) opens `file:` URLs with PGlite.
//
// Schema engine: Prisma's native schema-engine binary cannot be downloaded on
// offline machines, so unless PRISMA_SCHEMA_ENGINE_BINARY already names one,
// the CLI runs prisma/schema-engine/bin.mjs, a Node stand-in around the wasm
// engine. See prisma/schema-engine/README.md.
import path from "node:path";
import { fileURLToPath } from "node:url";

import { defineConfig } from "prisma/config";

import { embeddedDatabaseUrl, parseDatabaseTarget } from "./prisma/schema-engine/url.mjs";

process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(
  new URL("./prisma/schema-engine/bin.mjs", import.meta.url),
);
// Skip Prisma's update check, which calls a Prisma-hosted server.
process.env.CHECKPOINT_DISABLE = "1";

function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (url) {
    parseDatabaseTarget(url); // fail early, naming DATABASE_URL, on a malformed URL
    return url;
  }
  return embeddedDatabaseUrl(path.join(process.env.CHARTER_DATA_DIR || ".charter", "pglite"));
}

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: databaseUrl() },
});
