import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { setServerState, type ServerState } from "@/lib/startup";
import { setupTestDatabase } from "@/test/db";
import { GET } from "./route";

let teardown: () => Promise<void>;
beforeAll(async () => {
  process.env.BETTER_AUTH_SECRET ??= "health-test-secret-0123456789abcdefghij";
  resetEnv();
  ({ teardown } = await setupTestDatabase());
});
afterAll(() => teardown());

const holder = globalThis as unknown as { __charterServerState?: ServerState };
afterEach(() => {
  holder.__charterServerState = undefined;
});

async function health(
  query = "",
): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const res = await GET(new Request(`http://127.0.0.1/api/health${query}`), {
    params: Promise.resolve({}),
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
}

describe("GET /api/health as a load balancer's readiness check", () => {
  it("answers 503 starting with Retry-After until the instance is warm, then 200 ok", async () => {
    setServerState("starting");
    expect(await health()).toMatchObject({
      status: 503,
      retryAfter: "1",
      body: { status: "starting", db: expect.any(String), version: expect.any(String) },
    });
    setServerState("ready");
    expect(await health()).toMatchObject({
      status: 200,
      retryAfter: null,
      body: { status: "ok", db: expect.any(String), version: expect.any(String) },
    });
  });

  it("answers 503 draining from SIGTERM on, and a late 'ready' does not undo it", async () => {
    setServerState("ready");
    setServerState("draining");
    setServerState("ready");
    expect(await health()).toMatchObject({
      status: 503,
      retryAfter: "1",
      body: { status: "draining" },
    });
  });

  it("still demands credentials with ?auth=1", async () => {
    setServerState("ready");
    expect((await health("?auth=1")).status).toBe(401);
  });
});
