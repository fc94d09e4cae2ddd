import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { CliError } from "../errors";

type ServeOptions = { port: string; host: string; rebuild?: boolean };

const NEXT_BIN = ["node_modules", "next", "dist", "bin", "next"] as const;

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CliError(`--port must be a whole number from 1 to 65535 (got "${value}").`, 2);
  return port;
}

/**
 * What `charter serve` and `charter dev` share: the environment with its defaults (data
 * directory, generated secret, base URL), the database reachable and migrated, then
 * `next <mode>` run from the repository with the embedded database claimed and the
 * server's URL recorded for `charter users create-admin`. Resolves with Next's exit code.
 * The client-address stamp is installed inside the Next process (instrumentation.ts),
 * under `next dev` as under `next start`.
 */
async function runNext(mode: "start" | "dev", options: ServeOptions): Promise<number> {
  const { databaseTarget } = await import("@/lib/env");
  const { assertEmbeddedFree, checkDatabase, childEnv, claimEmbedded, migrate, nextDistDir, prepareEnv, recordServer, ROOT, run } = await import("../runtime");
  const next = path.join(ROOT, ...NEXT_BIN);
  const port = parsePort(options.port);
  const shownHost = options.host === "0.0.0.0" ? "127.0.0.1" : options.host;
  const url = `http://${shownHost}:${port}`;
  const e = prepareEnv({ baseUrl: url });
  assertEmbeddedFree(e);
  await checkDatabase(e);
  const target = databaseTarget(e);
  console.log(`charter: database ${target.kind === "embedded" ? `embedded (${target.dir})` : "PostgreSQL"}; applying migrations…`);
  await migrate();
  if (mode === "start" && (options.rebuild || !existsSync(path.join(nextDistDir(), "BUILD_ID")))) {
    console.log("charter: building the dashboard (once; `charter serve --rebuild` builds again)…");
    await run(process.execPath, [next, "build"], { label: "The dashboard build" });
  }
  claimEmbedded(e);
  // The URL its sign-in links use (BETTER_AUTH_URL, else where it listens): what create-admin must print.
  recordServer(e, e.BETTER_AUTH_URL ?? url);
  console.log(`charter: ${mode === "dev" ? "development server" : "serving"} on ${url}`);
  const child = spawn(process.execPath, [next, mode, "--port", String(port), "--hostname", options.host], { cwd: ROOT, env: { ...childEnv(), CHARTER_SELF_URL: url }, stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  return new Promise<number>((resolve) => child.on("close", (c, sig) => resolve(c ?? (sig ? 0 : 1))));
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
