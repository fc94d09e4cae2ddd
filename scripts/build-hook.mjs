#!/usr/bin/env node
// Bundles the `charter hook` and `charter spool` fast path into dist/hook.cjs, so a
// Claude Code hook starts in plain Node without a TypeScript loader (the 1 s budget).
// CommonJS and minified: bin/charter.mjs require()s it, which skips the ES module
// loader's resolution and the module facades it builds for every Node built-in, the
// largest part of the hook's start-up after Node's own (bench/hook-start.ts).
// The bundle may hold Charter's own code only (Node built-ins stay imports): a package
// from node_modules would slow every hook call, so the build fails on one. It is written
// to a temporary file and renamed, so a hook (or a test) running meanwhile never loads
// half a bundle.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const entry = path.join(ROOT, "cli", "hook", "main.ts");
if (!existsSync(entry)) process.exit(0);
const outfile = path.join(ROOT, "dist", "hook.cjs");
const result = await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  minify: true,
  logLevel: "warning",
  alias: { "@": ROOT },
  metafile: true,
  write: false,
});
const packages = Object.keys(result.metafile.inputs).filter((input) =>
  input.includes("node_modules"),
);
if (packages.length) {
  console.error(
    `dist/hook.cjs must hold Node built-ins and Charter's code only, not:\n  ${packages.join("\n  ")}`,
  );
  process.exit(1);
}
mkdirSync(path.dirname(outfile), { recursive: true });
const temporary = `${outfile}.${process.pid}.tmp`;
writeFileSync(temporary, result.outputFiles[0].contents);
renameSync(temporary, outfile);
// The ES module bundle of earlier versions: nothing loads it any more.
rmSync(path.join(ROOT, "dist", "hook.mjs"), { force: true });
