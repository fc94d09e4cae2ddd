import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** What CLI tests that look at the bundled `charter` share: building it, and seeing what it loads. */

const ROOT = path.resolve(import.meta.dirname, "..");
const BUNDLE = path.join(ROOT, "dist", "cli", "main.mjs");

/** Whether dist/cli/ exists and is newer than every Charter file in it (what bin/charter.mjs checks). */
function bundleIsCurrent(): boolean {
  if (!existsSync(BUNDLE)) return false;
  const built = statSync(BUNDLE).mtimeMs;
  const sources = JSON.parse(
    readFileSync(path.join(ROOT, "dist", "cli", "sources.json"), "utf8"),
  ) as string[];
  return sources.every((source) => statSync(path.join(ROOT, source)).mtimeMs <= built);
}

/** Builds dist/hook.cjs and dist/cli/ when missing or older than their sources, as `npm install` would. Returns a failure, or null. */
export function ensureBundles(): string | null {
  for (const script of ["build-hook.mjs", "build-cli.mjs"]) {
    const built =
      script === "build-cli.mjs"
        ? bundleIsCurrent()
        : existsSync(path.join(ROOT, "dist", "hook.cjs"));
    if (built) continue;
    const result = spawnSync(process.execPath, [path.join(ROOT, "scripts", script)], {
      encoding: "utf8",
    });
    if (result.status !== 0) return `${script} failed: ${result.stderr}`;
  }
  return null;
}

/** A `node --import` argument that logs every module Node resolves to stderr, as `LOADED <url>`: what a command really loads. */
export const TRACE_IMPORTS = `data:text/javascript,${encodeURIComponent(
  `import { register } from "node:module";
   register("data:text/javascript," + encodeURIComponent("export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write('LOADED ' + r.url + '\\\\n'); return r; }"));`,
)}`;

/** The module URLs a run with TRACE_IMPORTS loaded, Node's own left out. */
export function loadedModules(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((line) => line.startsWith("LOADED ") && !line.startsWith("LOADED node:"))
    .map((line) => line.slice("LOADED ".length));
}

/**
 * The environment a `charter` child retrieves in on the lexical path: its own data
 * directory, no LLM or embeddings endpoint, and `databaseUrl` as DATABASE_URL (undefined:
 * unset, the embedded database).
 */
export function lexicalCliEnv(dataDir: string, databaseUrl?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CHARTER_DATA_DIR: dataDir };
  for (const name of [
    "DATABASE_URL",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "CHARTER_EMBEDDING_MODEL",
    "CHARTER_RETRIEVAL_PATH",
  ])
    delete env[name];
  if (databaseUrl !== undefined) env.DATABASE_URL = databaseUrl;
  return env;
}
