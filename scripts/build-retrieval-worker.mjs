#!/usr/bin/env node
// Bundles the retrieval worker (lib/services/retrieval-worker.ts: lexical retrieval over
// the pure engine, on a worker thread) into dist/retrieval-worker.mjs, a plain module
// that a worker_threads Worker loads by path inside the Next.js server, whose own bundles
// cannot serve as a worker entry. Everything it imports is bundled in (the engine and
// the few packages it parses with), so it resolves nothing at run time; no network.
// dist/retrieval-worker.sources.json lists Charter's files in it, so that the pool
// (lib/services/retrieval-pool.ts) refuses a bundle older than a source and retrieves
// in-process instead. Written to a temporary file and renamed: a server starting
// meanwhile never loads half a bundle.
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const entry = path.join(ROOT, "lib", "services", "retrieval-worker.ts");
if (!existsSync(entry)) process.exit(0);
const outfile = path.join(ROOT, "dist", "retrieval-worker.mjs");
const result = await build({
  absWorkingDir: ROOT,
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
  alias: { "@": ROOT },
  metafile: true,
  write: false,
});
const sources = Object.keys(result.metafile.inputs).filter(
  (input) => !input.includes("node_modules"),
);
mkdirSync(path.dirname(outfile), { recursive: true });
/** Written beside its final name, then renamed over it. */
function replace(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}
replace(path.join(ROOT, "dist", "retrieval-worker.sources.json"), `${JSON.stringify(sources)}\n`);
replace(outfile, result.outputFiles[0].contents);
