import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/v1/events/route";
import { warmUpKey } from "@/lib/auth/warm-up";
import { db } from "@/lib/db/client";
import { baseUrl, resetEnv } from "@/lib/env";
import { ensureConstitution } from "@/lib/services/constitution";
import { setupTestDatabase, unique } from "@/test/db";

// The server's own warm-up request (lib/server-warm-up.ts) runs the whole ingestion path and stores nothing.
let teardown: () => Promise<void>;
beforeAll(async () => {
  process.env.BETTER_AUTH_SECRET ??= "events-warm-up-test-secret-0123456789abcdef";
  resetEnv();
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
});
afterAll(() => teardown());

describe("POST /api/v1/events with this process's warm-up key", () => {
  it("answers a prompt with its context and leaves no rows", async () => {
    const session = unique("warm-up");
    const res = await POST(
      new Request(`${baseUrl()}/api/v1/events`, {
        method: "POST",
        body: JSON.stringify({
          type: "UserPromptSubmit",
          id: unique("evt"),
          session_id: session,
          prompt: "warm up: fix the failing login test",
        }),
        headers: { "content-type": "application/json", "x-api-key": warmUpKey() },
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      accepted: number;
      results: { additional_context: string }[];
    };
    expect(body.accepted).toBe(1);
    expect(body.results[0]!.additional_context).toMatch(/^Charter constitution/);
    expect(await db().agentEvent.count({ where: { sessionId: session } })).toBe(0);
    expect(await db().agentSession.count({ where: { id: session } })).toBe(0);
    expect(await db().turn.count({ where: { sessionId: session } })).toBe(0);
  });
});
