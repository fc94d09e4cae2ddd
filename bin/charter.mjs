#!/usr/bin/env node
// The `charter` command. The CLI is TypeScript sharing code with the app, so it runs
// through tsx's loader (which also resolves the `@/` path alias from tsconfig.json).
// `charter hook` and `charter spool` run from the prebuilt dist/hook.mjs instead: a
// Claude Code hook must answer within 1 s, too little for the loader and the app.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const command = process.argv[2];
const fastPath = new URL("../dist/hook.mjs", import.meta.url);
if ((command === "hook" || command === "spool") && existsSync(fastPath)) {
  await import(fastPath.href);
} else {
  const { register } = await import("tsx/esm/api");
  // Charter's own tsconfig, wherever the command is run from (an agent's project, say):
  // the loader otherwise looks for one in the working directory and cannot resolve `@/`.
  register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
  await import("../cli/main.ts");
}
