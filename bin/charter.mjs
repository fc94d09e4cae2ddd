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
//   (scripts/build-cli.mjs): plain Node, no TypeScript compiled per call. `charter retrieve`
//   first tries dist/cli/retrieve-fast.cjs, which answers the usual call on the embedded
//   database from its head file (an agent may call it per prompt) and otherwise gives way.
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

/**
 * Loads a CommonJS bundle with V8's code cache kept beside it (`<file>.cache`): compiling the
 * bundle is a good part of a short command's time. `keep()` writes the cache at exit, with
 * every function the run compiled, when it is missing or was refused (another Node; a
 * rebuild replaces dist/cli/ whole), staged then renamed; one that cannot be written is
 * skipped. Throws ENOENT when the bundle is missing.
 */
function requireWithCodeCache(file) {
  const { readFileSync, renameSync, writeFileSync } = process.getBuiltinModule("node:fs");
  const { Script } = process.getBuiltinModule("node:vm");
  const { createRequire, wrap } = process.getBuiltinModule("node:module");
  const { dirname } = process.getBuiltinModule("node:path");
  const source = readFileSync(file, "utf8");
  const cacheFile = `${file}.cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // none yet
  }
  const script = new Script(wrap(source), { filename: file, cachedData });
  const loaded = { exports: {} };
  script
    .runInThisContext()
    .call(loaded.exports, loaded.exports, createRequire(file), loaded, file, dirname(file));
  const keep = () => {
    if (cachedData && !script.cachedDataRejected) return;
    process.once("exit", () => {
      try {
        const staging = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(staging, script.createCachedData());
        renameSync(staging, cacheFile);
      } catch {
        // a read-only install compiles each time
      }
    });
  };
  return { exports: loaded.exports, keep };
}

/** Answers `charter retrieve` from dist/cli/retrieve-fast.cjs; false when it gives way (or a bundle built before it has none). */
async function retrieveFast(dist) {
  const { fileURLToPath } = process.getBuiltinModule("node:url");
  let fast;
  try {
    fast = requireWithCodeCache(fileURLToPath(new URL("retrieve-fast.cjs", dist)));
  } catch {
    return false;
  }
  const answered = await fast.exports.retrieveFast(process.argv.slice(3));
  // A cache made by a run that answered holds what the next answer runs.
  if (answered) fast.keep();
  return answered;
}

if (!((command === "hook" || command === "spool") && runHookBundle())) {
  const { readFileSync, statSync } = await import("node:fs");
  const { fileURLToPath } = await import("node:url");
  const root = new URL("../", import.meta.url);
  const dist = new URL("dist/cli/", root);
  const bundle = new URL("main.mjs", dist);

  /** Whether dist/cli/ was built after every Charter file it holds was last changed. */
  const bundleIsCurrent = () => {
    try {
      const built = statSync(bundle).mtimeMs;
      const sources = JSON.parse(readFileSync(new URL("sources.json", dist), "utf8"));
      const rootPath = fileURLToPath(root);
      return sources.every((source) => statSync(rootPath + source).mtimeMs <= built);
    } catch {
      return false;
    }
  };

  if (bundleIsCurrent()) {
    // PostgreSQL (DATABASE_URL, blank counting as unset) has its own short path in the bundle.
    const fastRetrieve = command === "retrieve" && !process.env.DATABASE_URL?.trim();
    if (!(fastRetrieve && (await retrieveFast(dist)))) await import(bundle.href);
  } else {
    const { register } = await import("tsx/esm/api");
    register({ tsconfig: fileURLToPath(new URL("tsconfig.json", root)) });
    await import("../cli/main.ts");
  }
}
