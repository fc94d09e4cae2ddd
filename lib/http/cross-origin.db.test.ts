import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/v1/events/route";
import { upsertAdmin } from "@/lib/auth/bootstrap";
import { SYSTEM_ACTOR } from "@/lib/db/audit";
import { apiKeys } from "@/lib/db/api-keys";
import { db } from "@/lib/db/client";
import { baseUrl, resetEnv } from "@/lib/env";
import { NO_CONTENT_CSP } from "@/lib/http/security-headers";
import { ensureConstitution } from "@/lib/services/constitution";
import { setupTestDatabase, unique } from "@/test/db";
import { sessionCookie } from "@/test/sign-in";

// A real session and a real key: the Origin rule is about how Better Auth's cookie is carried.
let teardown: () => Promise<void>;
let cookie = "";
let apiKey = "";
beforeAll(async () => {
  process.env.BETTER_AUTH_SECRET ??= "cross-origin-test-secret-0123456789abcdef";
  resetEnv();
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
  const email = `${unique("csrf")}@example.com`;
  const { id } = await upsertAdmin(email, "CSRF test admin");
  cookie = await sessionCookie(email);
  apiKey = (
    await apiKeys.create(
      { name: unique("csrf-key"), scopes: ["ingest"], ownerId: id },
      SYSTEM_ACTOR,
    )
  ).key;
});
afterAll(() => teardown());

const OWN = new URL(baseUrl());
/** The reproduction: a page on another port of the same host. */
const FOREIGN = `${OWN.protocol}//${OWN.hostname}:${Number(OWN.port || 80) + 1}`;
const context = { params: Promise.resolve({}) };

function post(
  session: string,
  headers: Record<string, string>,
): { send: () => Promise<Response>; sessionId: string } {
  const sessionId = unique("csrf-session");
  // Bytes, not a string: fetch would add Content-Type text/plain to a string body.
  const body = new TextEncoder().encode(
    JSON.stringify({
      type: "UserPromptSubmit",
      id: unique("evt"),
      session_id: sessionId,
      prompt: "forged?",
    }),
  );
  return {
    sessionId,
    send: () =>
      POST(
        new Request(`${OWN.origin}/api/v1/events`, {
          method: "POST",
          body,
          headers: { host: OWN.host, ...(session ? { cookie: session } : {}), ...headers },
        }),
        context,
      ),
  };
}

async function stored(sessionId: string): Promise<number> {
  return db().turn.count({ where: { sessionId } });
}

describe("POST /api/v1/events with a session cookie", () => {
  it.each([
    [
      "a foreign Origin",
      { origin: FOREIGN, "content-type": "application/json" },
      `this request came from ${FOREIGN}`,
    ],
    ["Origin: null", { origin: "null", "content-type": "application/json" }, "opaque origin"],
    [
      "a text/plain body from the same origin",
      { origin: OWN.origin, "content-type": "text/plain" },
      "this request sent text/plain",
    ],
    ["no Content-Type from the same origin", { origin: OWN.origin }, "no Content-Type"],
    [
      "Sec-Fetch-Site: same-site and no Origin",
      { "sec-fetch-site": "same-site", "content-type": "application/json" },
      "Sec-Fetch-Site: same-site",
    ],
    [
      "a foreign Referer and no Origin",
      { referer: `${FOREIGN}/attack.html`, "content-type": "application/json" },
      "this request came from",
    ],
    [
      "no Origin, Sec-Fetch-Site or Referer",
      { "content-type": "application/json" },
      "names no Origin",
    ],
  ])("refuses %s with 403 and stores nothing", async (_, headers, reason) => {
    const { send, sessionId } = post(cookie, headers);
    const res = await send();
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("forbidden");
    expect(body.error.message).toContain(reason);
    expect(body.error.message).toContain("API key");
    expect(res.headers.get("content-security-policy")).toBe(NO_CONTENT_CSP);
    expect(await stored(sessionId)).toBe(0);
  });

  it.each([
    ["its own Origin", { origin: OWN.origin, "content-type": "application/json; charset=utf-8" }],
    [
      "Sec-Fetch-Site: same-origin and no Origin",
      { "sec-fetch-site": "same-origin", "content-type": "application/json" },
    ],
    [
      "its own Referer and no Origin",
      { referer: `${OWN.origin}/turns`, "content-type": "application/json" },
    ],
  ])("accepts JSON from %s", async (_, headers) => {
    const { send, sessionId } = post(cookie, headers);
    const res = await send();
    expect(res.status).toBe(200);
    expect(await stored(sessionId)).toBe(1);
  });
});

describe("POST /api/v1/events with an API key", () => {
  it("is not concerned by the Origin rule: an agent's key works from anywhere, even beside a cookie", async () => {
    const { send, sessionId } = post(cookie, {
      origin: FOREIGN,
      "content-type": "application/json",
      "x-api-key": apiKey,
    });
    expect((await send()).status).toBe(200);
    expect(await stored(sessionId)).toBe(1);
  });

  it("without any credential is still 401, not 403", async () => {
    const { send } = post("", { origin: FOREIGN, "content-type": "text/plain" });
    expect((await send()).status).toBe(401);
  });
});
