import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/v1/events/route";
import { SYSTEM_ACTOR } from "@/lib/db/audit";
import { apiKeys } from "@/lib/db/api-keys";
import { db } from "@/lib/db/client";
import { users } from "@/lib/db/users";
import { baseUrl, resetEnv } from "@/lib/env";
import { ensureConstitution } from "@/lib/services/constitution";
import { setupTestDatabase, unique } from "@/test/db";

// A session says where its events came from: `charter hook` names itself, any other key is "api".
let teardown: () => Promise<void>;
let key = "";
beforeAll(async () => {
  process.env.BETTER_AUTH_SECRET ??= "events-source-test-secret-0123456789abcdef";
  resetEnv();
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
  const owner = await users.create(
    { email: `${unique("source")}@example.test`, name: "Owner", role: "editor" },
    SYSTEM_ACTOR,
  );
  key = (
    await apiKeys.create(
      { name: unique("source-key"), scopes: ["ingest"], ownerId: owner.id },
      SYSTEM_ACTOR,
    )
  ).key;
});
afterAll(() => teardown());

async function send(headers: Record<string, string>): Promise<string> {
  const sessionId = unique("source-session");
  const body = JSON.stringify({
    type: "UserPromptSubmit",
    id: unique("evt"),
    session_id: sessionId,
    prompt: "where from?",
  });
  const res = await POST(
    new Request(`${baseUrl()}/api/v1/events`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-api-key": key, ...headers },
    }),
    { params: Promise.resolve({}) },
  );
  expect(res.status).toBe(200);
  return (await db().agentSession.findUniqueOrThrow({ where: { id: sessionId } })).source;
}

describe("a session's source", () => {
  it("is hook for the hook's requests, api for any other key", async () => {
    expect(await send({ "x-charter-client": "hook" })).toBe("hook");
    expect(await send({})).toBe("api");
    expect(await send({ "x-charter-client": "something-else" })).toBe("api");
  });
});
