import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { CliError } from "../errors";

type ServeOptions = { port: string; host: string; rebuild?: boolean };

const NEXT_BIN = ["node_modules", "next", "dist", "bin", "next"] as const;

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new CliError(`--port must be a whole number from 1 to 65535 (got "${value}").`, 2);
  return port;
}

/**
 * NODE_OPTIONS for the server process: the user's own, plus `--max-old-space-size` from
 * CHARTER_SERVER_HEAP_MB unless they set one themselves (theirs wins) or the cap is 0.
 */
export function nodeOptionsWithHeapCap(
  own: string | undefined,
  heapMb: number,
): { NODE_OPTIONS?: string } {
  if (heapMb <= 0 || /--max-old-space-size\b/.test(own ?? ""))
    return own ? { NODE_OPTIONS: own } : {};
  return { NODE_OPTIONS: [own, `--max-old-space-size=${heapMb}`].filter(Boolean).join(" ") };
}

/**
 * The configuration `next build` resolved and saved (`required-server-files.json`), handed
 * to `next start` as Next's own standalone server hands it (`__NEXT_PRIVATE_STANDALONE_CONFIG`),
 * so that the server does not load next.config.ts again. On Node 20 loading it means
 * compiling it with SWC, whose native library then stays mapped: about 26 MB of the
 * server's resident memory for one file. Empty (Next loads next.config.ts) when the build
 * saved none that can be read.
 */
export function builtConfigEnv(distDir: string): { __NEXT_PRIVATE_STANDALONE_CONFIG?: string } {
  try {
    const saved = JSON.parse(
      readFileSync(path.join(distDir, "required-server-files.json"), "utf8"),
    ) as { config?: unknown };
    if (!saved.config || typeof saved.config !== "object") return {};
    return { __NEXT_PRIVATE_STANDALONE_CONFIG: JSON.stringify(saved.config) };
  } catch {
    return {};
  }
}

/** How often a silent build says it is still working. */
const PROGRESS_INTERVAL_MS = 5_000;

/**
 * `next build`, with its own output passed through and, whenever it has said nothing for
 * a few seconds (its compile step is minutes of silence), a line with the time so far and
 * the step it is in, so a first start never looks hung.
 */
function buildWithProgress(next: string, root: string, env: NodeJS.ProcessEnv): Promise<void> {
  const started = Date.now();
  let step = "starting";
  let lastOutput = Date.now();
  const child = spawn(process.execPath, [next, "build"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pass = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
    const text = chunk.toString();
    stream.write(text);
    lastOutput = Date.now();
    const lines = text
      .split("\n")
      .map((l) => l.replace(/\x1b\[[0-9;]*m/g, "").trim())
      .filter(Boolean);
    const named = lines
      .reverse()
      .find((l) =>
        /^(?:[▲✓○ƒ]|Creating|Compiled|Linting|Checking|Collecting|Generating|Finalizing|Running)/u.test(
          l,
        ),
      );
    if (named) step = named.replace(/^[▲✓○ƒ]\s*/u, "").slice(0, 80);
  };
  child.stdout.on("data", pass(process.stdout));
  child.stderr.on("data", pass(process.stderr));
  const ticker = setInterval(() => {
    if (Date.now() - lastOutput < PROGRESS_INTERVAL_MS) return;
    console.log(
      `charter: still building, ${Math.round((Date.now() - started) / 1000)} s so far (${step})`,
    );
    lastOutput = Date.now();
  }, 1_000);
  return new Promise((resolve, reject) => {
    child.on("error", (error) => {
      clearInterval(ticker);
      reject(new CliError(`The dashboard build could not start: ${error.message}`));
    });
    child.on("close", (code) => {
      clearInterval(ticker);
      if (code !== 0)
        return reject(
          new CliError(`The dashboard build failed (exit ${code}); its output is above.`),
        );
      console.log(`charter: built in ${Math.round((Date.now() - started) / 1000)} s`);
      resolve();
    });
  });
}

/**
 * What `charter serve` and `charter dev` share: the environment with its defaults (data
 * directory, generated secret, base URL), the database reachable and migrated, then
 * `next <mode>` run from the repository with the server's URL recorded for `charter users
 * create-admin`. This process lets the embedded database go before starting Next: the Next
 * process holds its lock (`<dir>.lock`, lib/db/client.ts) once it opens it. Resolves with Next's exit code.
 * The client-address stamp is installed inside the Next process (instrumentation.ts),
 * under `next dev` as under `next start`.
 */
async function runNext(mode: "start" | "dev", options: ServeOptions): Promise<number> {
  const { databaseTarget } = await import("@/lib/env");
  const {
    assertEmbeddedFree,
    checkDatabase,
    childEnv,
    migrate,
    nextDistDir,
    prepareEnv,
    recordServer,
    ROOT,
  } = await import("../runtime");
  const next = path.join(ROOT, ...NEXT_BIN);
  const port = parsePort(options.port);
  const shownHost = options.host === "0.0.0.0" ? "127.0.0.1" : options.host;
  const url = `http://${shownHost}:${port}`;
  const e = prepareEnv({ baseUrl: url });
  assertEmbeddedFree(e);
  await checkDatabase(e);
  const target = databaseTarget(e);
  console.log(
    `charter: database ${target.kind === "embedded" ? `embedded (${target.dir})` : "PostgreSQL"}; applying migrations…`,
  );
  const { applied } = await migrate();
  if (applied.length) console.log(`charter: applied ${applied.join(", ")}`);
  if (mode === "start" && (options.rebuild || !existsSync(path.join(nextDistDir(), "BUILD_ID")))) {
    console.log(
      "charter: building the dashboard (once, 1 to 3 minutes; `charter serve --rebuild` builds again)…",
    );
    await buildWithProgress(next, ROOT, childEnv());
  }
  // The URL its sign-in links use (BETTER_AUTH_URL, else where it listens): what create-admin must print.
  recordServer(e, e.BETTER_AUTH_URL ?? url);
  const heap = nodeOptionsWithHeapCap(
    e.NODE_OPTIONS,
    mode === "start" ? e.CHARTER_SERVER_HEAP_MB : 0,
  );
  const capped = /--max-old-space-size=(\d+)/.exec(heap.NODE_OPTIONS ?? "")?.[1];
  console.log(
    `charter: ${mode === "dev" ? "development server" : "serving"} on ${url}${capped ? ` (heap cap ${capped} MB)` : ""}`,
  );
  const child = spawn(
    process.execPath,
    [next, mode, "--port", String(port), "--hostname", options.host],
    {
      cwd: ROOT,
      env: {
        ...childEnv(),
        CHARTER_SELF_URL: url,
        // The server drains on SIGTERM itself (lib/server-drain.ts): Next's handler would close the listener and exit first.
        NEXT_MANUAL_SIG_HANDLE: "1",
        ...(mode === "start" ? builtConfigEnv(nextDistDir()) : {}),
        ...heap,
      },
      stdio: "inherit",
    },
  );
  // Forwarded; the server drains and exits 0, and this process exits with it.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  return new Promise<number>((resolve) =>
    child.on("close", (c, sig) => resolve(c ?? (sig ? 0 : 1))),
  );
}

/** `charter serve` (a production build, `next start`) and `charter dev` (`next dev`, for working on Charter). */
export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("Migrate the database, build the dashboard if there is no build, and serve it")
    .option("-p, --port <port>", "port to listen on", "3000")
    .option("-H, --host <host>", "address to listen on", "127.0.0.1")
    .option("--rebuild", "build the dashboard even if a build exists")
    .action(async (options: ServeOptions) => {
      process.exitCode = await runNext("start", options);
    });

  program
    .command("dev")
    .description("Migrate the database and run the dashboard in development mode (next dev)")
    .option("-p, --port <port>", "port to listen on", "3000")
    .option("-H, --host <host>", "address to listen on", "127.0.0.1")
    .action(async (options: ServeOptions) => {
      process.exitCode = await runNext("dev", options);
    });
}
