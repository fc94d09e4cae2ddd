import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/db/audit";
import { apiKeys } from "@/lib/db/api-keys";
import { db } from "@/lib/db/client";
import { users } from "@/lib/db/users";
import { resetEnv } from "@/lib/env";
import { ensureConstitution } from "@/lib/services/constitution";
import { setupTestDatabase, unique } from "@/test/db";
import { installDirectEvents } from "./events-direct";

// Requests with an API key to POST /api/v1/events are answered where Node hands them to the
// server, before Next's router (here: a server whose own handler stands for Next and counts
// what reaches it); everything else goes on to the router untouched.
let teardown: () => Promise<void>;
let server: http.Server;
let base = "";
let ingestKey = "";
let readKey = "";
const reachedRouter: string[] = [];

beforeAll(async () => {
  process.env.BETTER_AUTH_SECRET ??= "events-direct-test-secret-0123456789abcdef";
  resetEnv();
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
  const owner = await users.create(
    { email: `${unique("direct")}@example.test`, name: "Owner", role: "editor" },
    SYSTEM_ACTOR,
  );
  const key = (scopes: Parameters<typeof apiKeys.create>[0]["scopes"]) =>
    apiKeys.create({ name: unique("direct-key"), scopes, ownerId: owner.id }, SYSTEM_ACTOR);
  ingestKey = (await key(["ingest"])).key;
  readKey = (await key(["read"])).key;
  installDirectEvents();
  server = http.createServer((req, res) => {
    reachedRouter.push(`${req.method} ${req.url}`);
    req.resume();
    res.end("router");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await teardown();
});

const prompt = (sessionId: string) => ({
  type: "UserPromptSubmit",
  id: unique("evt"),
  session_id: sessionId,
  prompt: "add input validation to the signup form and a test for it",
});

function post(path: string, body: string, headers: Record<string, string>) {
  return fetch(`${base}${path}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });
}

describe("POST /api/v1/events with an API key, before the router", () => {
  it("stores the event and answers like the route: results, Server-Timing, security headers", async () => {
    const sessionId = unique("direct-session");
    const before = reachedRouter.length;
    const res = await post("/api/v1/events", JSON.stringify(prompt(sessionId)), {
      "x-api-key": ingestKey,
      "x-charter-client": "hook",
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { accepted: number; results: { status: string }[] };
    expect(body.accepted).toBe(1);
    expect(body.results[0]!.status).toBe("accepted");
    expect(res.headers.get("server-timing")).toMatch(
      /^ingest;dur=[\d.]+, retrieve;dur=[\d.]+, queue;dur=[\d.]+, commit;dur=[\d.]+$/,
    );
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(reachedRouter.length).toBe(before);
    const session = await db().agentSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session.source).toBe("hook");
    expect(await db().turn.count({ where: { sessionId } })).toBe(1);
  });

  it("takes a Bearer key and a query string too", async () => {
    const res = await post("/api/v1/events?from=test", JSON.stringify(prompt(unique("s"))), {
      authorization: `Bearer ${ingestKey}`,
    });
    expect(res.status).toBe(200);
  });

  it("refuses an unknown key (401) and a key without the ingest scope (403), storing nothing", async () => {
    const sessionId = unique("refused-session");
    const unknown = await post("/api/v1/events", JSON.stringify(prompt(sessionId)), {
      "x-api-key": "chk_not_a_key",
    });
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    const wrongScope = await post("/api/v1/events", JSON.stringify(prompt(sessionId)), {
      "x-api-key": readKey,
    });
    expect(wrongScope.status).toBe(403);
    expect(((await wrongScope.json()) as { error: { message: string } }).error.message).toBe(
      "This API key lacks the scope this route needs (ingest).",
    );
    expect(await db().agentSession.count({ where: { id: sessionId } })).toBe(0);
  });

  it("answers a bad body as the route does: 400 for broken JSON, 422 naming the field", async () => {
    const broken = await post("/api/v1/events", "{", { "x-api-key": ingestKey });
    expect(broken.status).toBe(400);
    const invalid = await post(
      "/api/v1/events",
      JSON.stringify({ type: "UserPromptSubmit", id: unique("e"), session_id: "s" }),
      { "x-api-key": ingestKey },
    );
    expect(invalid.status).toBe(422);
    expect(
      ((await invalid.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path,
    ).toBe("prompt");
  });

  it("answers a body over the limit at once and drops the rest, so the client reads its 413 (no broken pipe)", async () => {
    const event = (mib: number) =>
      JSON.stringify({ ...prompt(unique("huge")), prompt: "x".repeat(mib * 1024 * 1024) });
    const body = event(17);
    const res = await post("/api/v1/events", body, { "x-api-key": ingestKey });
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).not.toBe("close");
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      `The request is ${Buffer.byteLength(body)} bytes; the limit is 16777216.`,
    );
  });

  it("passes on to the router: no key (a cookie), another path or method", async () => {
    const before = reachedRouter.length;
    const cookie = await post("/api/v1/events", "{}", { cookie: "better-auth.session_token=x" });
    expect(await cookie.text()).toBe("router");
    expect(
      await (await fetch(`${base}/api/v1/events`, { headers: { "x-api-key": ingestKey } })).text(),
    ).toBe("router");
    expect(await (await post("/api/v1/events/x", "{}", { "x-api-key": ingestKey })).text()).toBe(
      "router",
    );
    expect(await (await post("/api/v1/eventsx", "{}", { "x-api-key": ingestKey })).text()).toBe(
      "router",
    );
    expect(reachedRouter.slice(before)).toEqual([
      "POST /api/v1/events",
      "GET /api/v1/events",
      "POST /api/v1/events/x",
      "POST /api/v1/eventsx",
    ]);
  });
});
