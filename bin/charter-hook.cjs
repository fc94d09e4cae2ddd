#!/usr/bin/env node
// The command Claude Code runs for Charter's hooks: `charter hooks install` writes
// `<node> <this file> hook <event>` (cli/hook/settings.ts). It runs `charter hook` and
// `charter spool` as bin/charter.mjs does, but as CommonJS: an ES module entry costs
// Node's ES module loader on every call, which reads the entry file on the thread pool,
// a wait of its own on a busy machine (bench/hook-start.ts measures both). Before the
// first build (development), the full command runs instead.
"use strict";

try {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS on purpose (above)
  require("../dist/hook.cjs");
} catch (error) {
  if (error?.code !== "MODULE_NOT_FOUND" || !String(error.message).includes("hook.cjs"))
    throw error;
  import("./charter.mjs");
}
