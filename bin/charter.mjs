#!/usr/bin/env node
// The `charter` command. Paths here are relative to this file's real location (Node
// resolves the symlink that `npm link` or `npm install -g` puts on the PATH), so it runs
// from any directory.
//
// - `charter hook` and `charter spool` run from dist/hook.cjs: a Claude Code hook must
//   start in a small part of its 1 s budget. That path imports nothing itself (an ES
//   module import of a built-in builds a module facade for it) and require()s the
//   CommonJS bundle, trying it rather than testing for it first.
// - Every other command runs from dist/cli/main.mjs, bundled at install
//   (scripts/build-cli.mjs): plain Node, no TypeScript compiled per call.
// - Before the first build, or when a file in the bundle was edited since (development),
//   the TypeScript runs through tsx's loader instead, given Charter's own tsconfig so the
//   `@/` alias resolves wherever the command is run from.

const command = process.argv[2];

/** Runs dist/hook.cjs; false when it is not built. */
function runHookBundle() {
  const { createRequire } = process.getBuiltinModule("node:module");
  try {
    createRequire(import.meta.url)("../dist/hook.cjs");
    return true;
  } catch (error) {
    if (error?.code === "MODULE_NOT_FOUND" && error.message.includes("hook.cjs")) return false;
    throw error;
  }
}

if (!((command === "hook" || command === "spool") && runHookBundle())) {
  const { readFileSync, statSync } = await import("node:fs");
  const { fileURLToPath } = await import("node:url");
  const root = new URL("../", import.meta.url);
  const bundle = new URL("dist/cli/main.mjs", root);

  /** Whether dist/cli/ was built after every Charter file it holds was last changed. */
  const bundleIsCurrent = () => {
    try {
      const built = statSync(bundle).mtimeMs;
      const sources = JSON.parse(readFileSync(new URL("dist/cli/sources.json", root), "utf8"));
      return sources.every((source) => statSync(new URL(source, root)).mtimeMs <= built);
    } catch {
      return false;
    }
  };

  if (bundleIsCurrent()) {
    await import(bundle.href);
  } else {
    const { register } = await import("tsx/esm/api");
    register({ tsconfig: fileURLToPath(new URL("tsconfig.json", root)) });
    await import("../cli/main.ts");
  }
}
