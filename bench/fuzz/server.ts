/**
 * The fuzz bench's server: one given by CHARTER_URL, or a production server it starts
 * on a fresh PostgreSQL database (bench/support/server.ts, as bench/agents.ts does).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { listenerPid, ROOT, startBenchServer } from "../support/server";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export type Target = {
  url: string;
  key: string;
  /** A signed-in admin's cookie for the dashboard pages, when there is one. */
  cookie: string | null;
  /** The process listening on the URL's port, whose memory is sampled. */
  pid: number | null;
  stop: () => Promise<void>;
};

/** Refuses anything but this machine: the fuzzer sends garbage by the thousand. */
export function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!LOOPBACK.has(host))
    throw new Error(
      `Refusing to fuzz ${host}: the URL must be on this machine (127.0.0.1, localhost or ::1).`,
    );
}

/** The server named by CHARTER_URL / CHARTER_API_KEY (CHARTER_COOKIE, CHARTER_SERVER_PID optional). */
export function givenServer(env: NodeJS.ProcessEnv): Target {
  const url = env.CHARTER_URL!.replace(/\/+$/, "");
  assertLoopback(url);
  if (!env.CHARTER_API_KEY)
    throw new Error(
      "CHARTER_URL is set but CHARTER_API_KEY is not: give a key with the ingest and read scopes.",
    );
  const pid = env.CHARTER_SERVER_PID
    ? Number(env.CHARTER_SERVER_PID)
    : listenerPid(Number(new URL(url).port || 80));
  return {
    url,
    key: env.CHARTER_API_KEY,
    cookie: env.CHARTER_COOKIE ?? null,
    pid,
    stop: async () => undefined,
  };
}

/**
 * Starts `charter serve` (production, an existing build) on a fresh database, with an
 * admin, an API key with the ingest and read scopes, and the admin's session cookie.
 */
export async function startServer(port: number): Promise<Target> {
  if (!existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    throw new Error(
      "There is no production build (.next/BUILD_ID): run `npm run build` first, or point CHARTER_URL at a running server.",
    );
  }
  const server = await startBenchServer({
    port,
    scopes: ["ingest", "read"],
    signIn: true,
    stderr: "inherit",
  });
  try {
    return {
      url: server.url,
      key: server.key,
      cookie: await signIn(server.signInLink!),
      pid: listenerPid(port),
      stop: server.stop,
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Follows a sign-in link and returns the session cookie it sets. */
async function signIn(link: string): Promise<string | null> {
  assertLoopback(link);
  const res = await fetch(link, { redirect: "manual" });
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]!);
  return cookies.length ? cookies.join("; ") : null;
}
