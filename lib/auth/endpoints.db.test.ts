import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET, POST } from "@/app/api/auth/[...all]/route";
import { apiKeys } from "@/lib/db/api-keys";
import { db } from "@/lib/db/client";
import { users } from "@/lib/db/users";
import { baseUrl, resetEnv } from "@/lib/env";
import { setupTestDatabase, unique } from "@/test/db";
import { auth } from "./auth";
import { issueSignInLink } from "./bootstrap";
import { CLIENT_IP_HEADER, installClientIpStamp } from "./client-ip";
import { AUTH_BASE_PATH, PUBLIC_AUTH_ENDPOINTS } from "./endpoints";
import { ROLES, type Role } from "./roles";

// Every endpoint Better Auth and its plugins serve, by every kind of caller, through the
// real /api/auth/[...all] route: only Charter's own sign-in and sign-out are reachable,
// and nothing else changes a row.

let teardown: () => Promise<void>;
let victim: { id: string; email: string };
let keyId: string;
const credentials: Record<string, Record<string, string>> = { anonymous: {} };

/** A fresh address per request, as the server's stamp would give distinct peers: no rate limit interferes. */
let ipCounter = 0;
const freshIp = () => `198.18.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

const handlers = { GET, POST } as const;

function call(
  method: "GET" | "POST",
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Response> {
  const url = new URL(`${AUTH_BASE_PATH}${path}`, baseUrl());
  const init: RequestInit = {
    method,
    headers: { origin: baseUrl(), [CLIENT_IP_HEADER]: freshIp(), ...headers },
  };
  if (method === "GET")
    for (const [k, v] of Object.entries(body as Record<string, string>)) url.searchParams.set(k, v);
  else init.body = JSON.stringify(body);
  if (method === "POST")
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  return handlers[method](new Request(url, init));
}

/** A session cookie for a new user of `role`, signed in through the real link and verify endpoint. */
async function signedIn(role: Role): Promise<Record<string, string>> {
  const user = await users.create(
    { email: `${unique(role)}@example.test`, name: role, role },
    { id: null, label: "test" },
  );
  const link = new URL(await issueSignInLink(user.email));
  const res = await call(
    "GET",
    link.pathname.slice(AUTH_BASE_PATH.length),
    {},
    Object.fromEntries(link.searchParams),
  );
  expect(res.status).toBe(302);
  return {
    cookie: res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; "),
  };
}

/** What a request through Better Auth could change: users, keys, sessions, accounts, links, the audit log. */
async function fingerprint(): Promise<string> {
  const [u, k, s, a, v, log] = await Promise.all([
    db().user.findMany({
      select: { id: true, email: true, name: true, role: true, banned: true, updatedAt: true },
      orderBy: { id: "asc" },
    }),
    db().apikey.findMany({
      select: {
        id: true,
        name: true,
        enabled: true,
        permissions: true,
        referenceId: true,
        updatedAt: true,
      },
      orderBy: { id: "asc" },
    }),
    db().session.findMany({
      select: { id: true, userId: true, expiresAt: true },
      orderBy: { id: "asc" },
    }),
    db().account.count(),
    db().verification.count(),
    db().auditLog.count(),
  ]);
  return JSON.stringify({ u, k, s, a, v, log });
}

type Endpoint = { name: string; method: "GET" | "POST"; path: string };

/** Every HTTP endpoint the Better Auth instance serves, read from the instance: a new plugin's endpoints are included. */
function allEndpoints(): Endpoint[] {
  return Object.entries(auth().api).flatMap(([name, endpoint]) => {
    const { path, options } = endpoint as unknown as {
      path?: string;
      options?: { method?: string | string[] };
    };
    if (!path) return [];
    const methods = [options?.method ?? []]
      .flat()
      .filter((m): m is "GET" | "POST" => m === "GET" || m === "POST");
    return methods.map((method) => ({ name, method, path: path.replace(/:\w+/g, "x") }));
  });
}

beforeAll(async () => {
  process.env.BETTER_AUTH_SECRET ??= "endpoints-test-secret-0123456789abcdef";
  resetEnv();
  ({ teardown } = await setupTestDatabase());
  for (const role of ROLES) credentials[role] = await signedIn(role);
  victim = await users.create(
    { email: `${unique("victim")}@example.test`, name: "Victim", role: "viewer" },
    { id: null, label: "test" },
  );
  const owner = await users.create(
    { email: `${unique("owner")}@example.test`, name: "Owner", role: "admin" },
    { id: null, label: "test" },
  );
  const created = await apiKeys.create(
    { name: "agent", scopes: ["ingest", "read"] },
    { id: owner.id, label: owner.email },
  );
  keyId = created.id;
  await apiKeys.revoke(keyId, { id: owner.id, label: owner.email });
  const live = await apiKeys.create(
    { name: "agent-live", scopes: ["ingest", "read"] },
    { id: owner.id, label: owner.email },
  );
  credentials["API key"] = { "x-api-key": live.key };
});
afterAll(() => teardown());

/** A body that asks each endpoint for the most it could do to the victim, the revoked key and the caller. */
const hostileBody = () => ({
  userId: victim.id,
  id: keyId,
  keyId,
  role: "admin",
  enabled: true,
  permissions: { charter: ["ingest", "read"] },
  name: "renamed",
  email: `${unique("new")}@example.test`,
  password: "a-new-password-123",
  newPassword: "a-new-password-123",
  currentPassword: "x",
  banReason: "x",
  sessionToken: "x",
  token: "x",
  expiresIn: 60,
});

describe("Better Auth endpoints through /api/auth/*", () => {
  it("serves only the allowlisted endpoints, and every allowlisted one exists", () => {
    const served = new Set(allEndpoints().map((e) => `${e.method} ${e.path}`));
    for (const allowed of PUBLIC_AUTH_ENDPOINTS) expect(served).toContain(allowed);
    expect(allEndpoints().length).toBeGreaterThan(40);
  });

  it("answers 404 to every other endpoint for every caller, and changes nothing", async () => {
    const closed = allEndpoints().filter(
      (e) => !PUBLIC_AUTH_ENDPOINTS.has(`${e.method} ${e.path}`),
    );
    const before = await fingerprint();
    const leaks: string[] = [];
    let requests = 0;
    for (const endpoint of closed) {
      for (const [caller, headers] of Object.entries(credentials)) {
        const res = await call(
          endpoint.method,
          endpoint.path,
          headers,
          endpoint.method === "GET" ? { userId: victim.id, id: keyId } : hostileBody(),
        );
        requests += 1;
        if (res.status !== 404)
          leaks.push(`${caller} ${endpoint.method} ${endpoint.path}: ${res.status}`);
      }
    }
    expect(leaks).toEqual([]);
    expect(requests).toBeGreaterThan(300);
    expect(await fingerprint()).toBe(before);
  });

  it.each([
    ["a path outside the allowlist by a trailing slash", "POST", "/sign-out/"],
    ["a double slash", "POST", "//sign-out"],
    ["the wrong method for an allowed path", "GET", "/sign-in/magic-link"],
    ["an encoded slash", "POST", "/admin%2Fset-role"],
  ] as const)("answers 404 to %s", async (_, method, path) => {
    const res = await call(method, path, credentials.admin!, method === "GET" ? {} : hostileBody());
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: "not_found", message: "No such endpoint." },
    });
  });

  it("would have let an admin set a role without an audit row had the endpoint been open (the door is real)", async () => {
    const target = await users.create(
      { email: `${unique("open")}@example.test`, name: "Open", role: "viewer" },
      { id: null, label: "test" },
    );
    const url = new URL(`${AUTH_BASE_PATH}/admin/set-role`, baseUrl());
    const res = await auth().handler(
      new Request(url, {
        method: "POST",
        headers: {
          ...credentials.admin,
          origin: baseUrl(),
          "content-type": "application/json",
          [CLIENT_IP_HEADER]: freshIp(),
        },
        body: JSON.stringify({ userId: target.id, role: "admin" }),
      }),
    );
    expect(res.status).toBe(200);
    expect((await db().user.findUniqueOrThrow({ where: { id: target.id } })).role).toBe("admin");
    const viaRoute = await call("POST", "/admin/set-role", credentials.admin!, {
      userId: target.id,
      role: "viewer",
    });
    expect(viaRoute.status).toBe(404);
    expect((await db().user.findUniqueOrThrow({ where: { id: target.id } })).role).toBe("admin");
  });

  it("refuses impersonation even when asked server-side", async () => {
    await expect(
      auth().api.impersonateUser({
        body: { userId: victim.id },
        headers: new Headers({ cookie: credentials.admin!.cookie!, [CLIENT_IP_HEADER]: freshIp() }),
      }),
    ).rejects.toMatchObject({ statusCode: 403 });
  });

  it("signs out through the allowed endpoint; the sign-in and the sign-out are audited as the person, with the stamped address", async () => {
    const since = new Date();
    const cookie = await signedIn("viewer");
    const session = await auth().api.getSession({ headers: new Headers(cookie) });
    const userId = session!.user.id;
    const res = await call(
      "POST",
      "/sign-out",
      { ...cookie, [CLIENT_IP_HEADER]: "198.51.100.77" },
      {},
    );
    expect(res.status).toBe(200);
    expect(await auth().api.getSession({ headers: new Headers(cookie) })).toBeNull();
    // A second sign-out with the ended session changes nothing and records nothing.
    expect((await call("POST", "/sign-out", cookie, {})).status).toBeLessThan(500);
    const rows = await db().auditLog.findMany({
      where: { objectId: userId, at: { gte: since } },
      orderBy: { at: "asc" },
    });
    expect(rows.map((r) => [r.action, r.actorId, r.actorLabel])).toEqual([
      ["user.create", null, "test"],
      ["user.sign_in_link", null, "system"],
      ["user.sign_in", userId, session!.user.email],
      ["user.sign_out", userId, session!.user.email],
    ]);
    expect(rows[2]!.after).toEqual({ ip: expect.stringMatching(/^198\.18\./) });
    expect(rows[3]!.after).toEqual({ ip: "198.51.100.77" });
  });
});

describe("asking for a sign-in link on the sign-in page", () => {
  it("says an address that is not invited is not invited, and makes no link", async () => {
    const before = await db().verification.count();
    const res = await call(
      "POST",
      "/sign-in/magic-link",
      {},
      { email: `${unique("stranger")}@example.test`, callbackURL: "/" },
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      code: "NOT_INVITED",
      message: expect.stringMatching(/not invited/),
    });
    expect(await db().verification.count()).toBe(before);
  });

  it("tells an invited address it is invited, and makes no link for it (nobody would receive one)", async () => {
    const user = await users.create(
      { email: `${unique("asker")}@example.test`, name: "Asker", role: "viewer" },
      { id: null, label: "test" },
    );
    const before = await db().verification.count();
    const res = await call(
      "POST",
      "/sign-in/magic-link",
      {},
      { email: user.email, callbackURL: "/", metadata: { charterCapture: "guessed" } },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: true });
    expect(await db().verification.count()).toBe(before);
  });

  it("logs no error line for refused requests: a stranger's address, a used link, a closed endpoint", async () => {
    const lines: string[] = [];
    const original = { error: console.error, warn: console.warn };
    console.error = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
    try {
      await call(
        "POST",
        "/sign-in/magic-link",
        {},
        { email: `${unique("quiet")}@example.test`, callbackURL: "/" },
      );
      await call("GET", "/magic-link/verify", {}, { token: "not-a-token", callbackURL: "/" });
      await call("POST", "/admin/ban-user", credentials.viewer!, hostileBody());
    } finally {
      Object.assign(console, original);
    }
    expect(lines.filter((line) => /error/i.test(line))).toEqual([]);
  });

  it("never writes a link for an invited address to the log", async () => {
    const user = await users.create(
      { email: `${unique("invited")}@example.test`, name: "In", role: "viewer" },
      { id: null, label: "test" },
    );
    const lines: string[] = [];
    const original = {
      log: console.log,
      info: console.info,
      warn: console.warn,
      error: console.error,
    };
    for (const level of ["log", "info", "warn", "error"] as const)
      console[level] = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
    try {
      const res = await call(
        "POST",
        "/sign-in/magic-link",
        {},
        { email: user.email, callbackURL: "/" },
      );
      expect(res.status).toBe(200);
    } finally {
      Object.assign(console, original);
    }
    expect(lines.join("\n")).not.toMatch(/magic-link\/verify|token=/);
  });

  it("sends a used link to the sign-in page with INVALID_TOKEN", async () => {
    const user = await users.create(
      { email: `${unique("twice")}@example.test`, name: "Twice", role: "viewer" },
      { id: null, label: "test" },
    );
    const link = new URL(await issueSignInLink(user.email));
    const open = () =>
      call(
        "GET",
        link.pathname.slice(AUTH_BASE_PATH.length),
        {},
        Object.fromEntries(link.searchParams),
      );
    expect((await open()).status).toBe(302);
    const again = await open();
    expect(again.status).toBe(302);
    const landed = new URL(again.headers.get("location") ?? "", baseUrl());
    expect(landed.pathname).toBe("/sign-in");
    expect(landed.searchParams.get("error")).toBe("INVALID_TOKEN");
  });

  it("rate-limits by the stamped client address: 20 requests with a rotating X-Forwarded-For hit the limit", async () => {
    const user = await users.create(
      { email: `${unique("limited")}@example.test`, name: "Lim", role: "viewer" },
      { id: null, label: "test" },
    );
    const peer = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const res = await call(
        "POST",
        "/sign-in/magic-link",
        { [CLIENT_IP_HEADER]: peer, "x-forwarded-for": `192.0.2.${i + 1}` },
        { email: user.email, callbackURL: "/" },
      );
      statuses.push(res.status);
    }
    const limited = statuses.filter((s) => s === 429).length;
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(limited).toBe(15);
  });

  it("over a real socket with the server's stamp installed, a client's own address header and a rotating X-Forwarded-For both hit the limit", async () => {
    installClientIpStamp();
    const user = await users.create(
      { email: `${unique("socket")}@example.test`, name: "Sock", role: "viewer" },
      { id: null, label: "test" },
    );
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers))
          if (typeof value === "string") headers.set(name, value);
        void POST(
          new Request(new URL(req.url ?? "/", baseUrl()), {
            method: "POST",
            headers,
            body: Buffer.concat(chunks),
          }),
        ).then(async (answer) => {
          res.writeHead(answer.status, { "content-type": "application/json" });
          res.end(await answer.text());
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const statuses: number[] = [];
      for (let i = 0; i < 20; i += 1) {
        const res = await fetch(`http://127.0.0.2:${port}${AUTH_BASE_PATH}/sign-in/magic-link`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            origin: baseUrl(),
            "x-forwarded-for": `192.0.2.${i + 1}`,
            [CLIENT_IP_HEADER]: `198.51.100.${i + 1}`,
          },
          body: JSON.stringify({ email: user.email, callbackURL: "/" }),
        });
        statuses.push(res.status);
      }
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(15);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
