#!/usr/bin/env node
// Bundles the `charter hook` and `charter spool` fast path into dist/hook.mjs, so a
// Claude Code hook starts in plain Node without a TypeScript loader (the 1 s budget).
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const entry = path.join(ROOT, "cli", "hook", "main.ts");
if (!existsSync(entry)) process.exit(0);
await build({
  entryPoints: [entry],
  outfile: path.join(ROOT, "dist", "hook.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
  alias: { "@": ROOT },
});
