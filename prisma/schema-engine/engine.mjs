// @ts-check
// Loads the wasm build of Prisma's schema engine (@prisma/schema-engine-wasm).
//
// The package's main entry imports the .wasm file as an ES module, which Node
// 20 only allows behind --experimental-wasm-modules, so we instantiate it by
// hand from the wasm-bindgen glue (`schema_engine_bg.js`), the same way
// Prisma's own tooling does.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

/** @typedef {typeof import("@prisma/schema-engine-wasm/schema_engine_bg")} Runtime */
/** @typedef {import("@prisma/schema-engine-wasm").SchemaEngine} SchemaEngine */

/** @type {Runtime | undefined} */
let runtime;

// The engine's Rust panic hook hands the panic message to this global before
// the wasm traps with a bare "unreachable"; keep it so errors can say why.
/** @type {string | undefined} */
let lastPanicMessage;
const panicHost =
  /** @type {{ PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } }} */ (
    globalThis
  );
panicHost.PRISMA_WASM_PANIC_REGISTRY ??= {
  /** @param {string} message */
  set_message(message) {
    lastPanicMessage = message;
  },
};

/** The message of the last Rust panic inside the engine, if any. */
export function takePanicMessage() {
  const message = lastPanicMessage;
  lastPanicMessage = undefined;
  return message;
}

/** @returns {Promise<Runtime>} */
async function loadRuntime() {
  if (runtime) return runtime;
  const glue = await import("@prisma/schema-engine-wasm/schema_engine_bg");
  const wasmPath = path.join(
    path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")),
    "schema_engine_bg.wasm",
  );
  const wasmModule = new WebAssembly.Module(readFileSync(wasmPath));
  const instance = new WebAssembly.Instance(wasmModule, { "./schema_engine_bg.js": glue });
  glue.__wbg_set_wasm(instance.exports);
  /** @type {() => void} */ (instance.exports.__wbindgen_start)();
  runtime = glue;
  return runtime;
}

/**
 * The engines commit hash this wasm build was made from; the native binary
 * reports the same hash from `--version`, and the CLI compares it.
 */
export function enginesHash() {
  // package.json is not in the package's "exports"; read it next to the glue module.
  const pkgPath = path.join(
    path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")),
    "package.json",
  );
  const { version } = JSON.parse(readFileSync(pkgPath, "utf8"));
  return /([0-9a-f]{40})$/.exec(version)?.[1] ?? version;
}

/**
 * Creates a wasm schema engine.
 *
 * @param {[string, string][] | undefined} datamodels [path, content] pairs; undefined when there are none
 * @param {ReturnType<typeof import("@prisma/driver-adapter-utils").bindMigrationAwareSqlAdapterFactory>} boundFactory a factory from bindMigrationAwareSqlAdapterFactory
 * @param {(message: string) => void} debug receives the engine's tracing output
 * @returns {Promise<SchemaEngine>}
 */
export async function createSchemaEngine(datamodels, boundFactory, debug) {
  const { SchemaEngine } = await loadRuntime();
  return SchemaEngine.new({ datamodels }, debug, boundFactory);
}
