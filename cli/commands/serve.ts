import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { databaseTarget } from "@/lib/env";
import { CliError } from "../errors";
import { assertEmbeddedFree, checkDatabase, childEnv, claimEmbedded, migrate, prepareEnv, ROOT, run } from "../runtime";

const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CliError(`--port must be a whole number from 1 to 65535 (got "${value}").`, 2);
  return port;
}

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("Migrate the database, build the dashboard if there is no build, and serve it")
    .option("-p, --port <port>", "port to listen on", "3000")
    .option("-H, --host <host>", "address to listen on", "127.0.0.1")
    .option("--rebuild", "build the dashboard even if a build exists")
    .action(async (options: { port: string; host: string; rebuild?: boolean }) => {
      const port = parsePort(options.port);
      const shownHost = options.host === "0.0.0.0" ? "127.0.0.1" : options.host;
      const e = prepareEnv({ baseUrl: `http://${shownHost}:${port}` });
      assertEmbeddedFree(e);
      await checkDatabase(e);
      const target = databaseTarget(e);
      console.log(`charter: database ${target.kind === "embedded" ? `embedded (${target.dir})` : "PostgreSQL"}; applying migrations…`);
      await migrate();
      if (options.rebuild || !existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
        console.log("charter: building the dashboard (once; `charter serve --rebuild` builds again)…");
        await run(process.execPath, [NEXT_BIN, "build"], { label: "The dashboard build" });
      }
      claimEmbedded(e);
      console.log(`charter: serving on http://${shownHost}:${port}`);
      const child = spawn(process.execPath, [NEXT_BIN, "start", "--port", String(port), "--hostname", options.host], { cwd: ROOT, env: { ...childEnv(), CHARTER_SELF_URL: `http://${shownHost}:${port}` }, stdio: "inherit" });
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
      const code = await new Promise<number>((resolve) => child.on("close", (c, sig) => resolve(c ?? (sig ? 0 : 1))));
      process.exitCode = code;
    });
}
