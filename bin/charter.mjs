#!/usr/bin/env node
// The `charter` command. Paths here are relative to this file's real location (Node
// resolves the symlink that `npm link` or `npm install -g` puts on the PATH), so it runs
// from any directory.
//
// - `charter hook` and `charter spool` run from dist/hook.mjs: a Claude Code hook must
//   answer within 1 s.
// - Every other command runs from dist/cli/main.mjs, bundled at install
//   (scripts/build-cli.mjs): plain Node, no TypeScript compiled per call.
// - Before the first build, or when a file in the bundle was edited since (development),
//   the TypeScript runs through tsx's loader instead, given Charter's own tsconfig so the
//   `@/` alias resolves wherever the command is run from.
import { existsSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const command = process.argv[2];
const root = new URL("../", import.meta.url);
const fastPath = new URL("dist/hook.mjs", root);
const bundle = new URL("dist/cli/main.mjs", root);

/** Whether dist/cli/ was built after every Charter file it holds was last changed. */
function bundleIsCurrent() {
  try {
    const built = statSync(bundle).mtimeMs;
    const sources = JSON.parse(readFileSync(new URL("dist/cli/sources.json", root), "utf8"));
    return sources.every((source) => statSync(new URL(source, root)).mtimeMs <= built);
  } catch {
    return false;
  }
}

if ((command === "hook" || command === "spool") && existsSync(fastPath)) {
  await import(fastPath.href);
} else if (bundleIsCurrent()) {
  await import(bundle.href);
} else {
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: fileURLToPath(new URL("tsconfig.json", root)) });
  await import("../cli/main.ts");
}
