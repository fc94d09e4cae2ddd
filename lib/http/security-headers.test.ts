import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import nextConfig from "@/next.config";
import { config, proxy } from "@/proxy";
import { NotFoundError } from "@/lib/errors";
import { route } from "./route";
import {
  BASE_SECURITY_HEADERS,
  HSTS_HEADER,
  NO_CONTENT_CSP,
  NONCE_HEADER,
} from "./security-headers";

const ORIGIN = "http://127.0.0.1:3000";
const context = { params: Promise.resolve({}) };

function expectBaseHeaders(headers: Headers, https = false): void {
  for (const [key, value] of Object.entries(BASE_SECURITY_HEADERS))
    expect(headers.get(key), key).toBe(value);
  expect(headers.get("x-frame-options")).toBe("DENY");
  expect(headers.get(HSTS_HEADER.key)).toBe(https ? HSTS_HEADER.value : null);
}

/** The directives of a policy, by name. */
function directives(csp: string | null): Map<string, string[]> {
  return new Map(
    (csp ?? "")
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
}

describe("proxy(): pages", () => {
  it.each(["/", "/constitution", "/no-such-page", "/icon.svg"])(
    "%s gets a nonce policy that frames nothing and the base headers",
    (path) => {
      const res = proxy(new NextRequest(`${ORIGIN}${path}`));
      expectBaseHeaders(res.headers);
      const csp = directives(res.headers.get("content-security-policy"));
      const nonce = /^'nonce-([A-Za-z0-9+/=]{24})'$/.exec(csp.get("script-src")?.[1] ?? "")?.[1];
      expect(nonce).toBeDefined();
      expect(csp.get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
      expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
      expect(csp.get("object-src")).toEqual(["'none'"]);
      expect(csp.get("default-src")).toEqual(["'self'"]);
      expect(csp.has("upgrade-insecure-requests")).toBe(false);
      // Next reads the nonce from the request's policy: the proxy forwards both to the renderer.
      expect(res.headers.get(`x-middleware-request-${NONCE_HEADER}`)).toBe(nonce);
      expect(res.headers.get("x-middleware-request-content-security-policy")).toBe(
        res.headers.get("content-security-policy"),
      );
    },
  );

  it("makes a fresh nonce for every request", () => {
    const nonces = new Set(
      Array.from({ length: 20 }, () =>
        proxy(new NextRequest(`${ORIGIN}/`)).headers.get(`x-middleware-request-${NONCE_HEADER}`),
      ),
    );
    expect(nonces.size).toBe(20);
  });

  it("adds HSTS and upgrade-insecure-requests only behind https", () => {
    const res = proxy(new NextRequest(`${ORIGIN}/`, { headers: { "x-forwarded-proto": "https" } }));
    expectBaseHeaders(res.headers, true);
    expect(
      directives(res.headers.get("content-security-policy")).has("upgrade-insecure-requests"),
    ).toBe(true);
    expect(
      proxy(new NextRequest("https://charter.example.com/")).headers.get(HSTS_HEADER.key),
    ).toBe(HSTS_HEADER.value);
  });

  it("gives /api answers (Better Auth, a 404 under /api/v1) the policy that allows nothing, without a nonce", () => {
    for (const path of ["/api/auth/get-session", "/api/v1/nope"]) {
      const res = proxy(new NextRequest(`${ORIGIN}${path}`));
      expectBaseHeaders(res.headers);
      expect(res.headers.get("content-security-policy")).toBe(NO_CONTENT_CSP);
      expect(res.headers.get(`x-middleware-request-${NONCE_HEADER}`)).toBeNull();
    }
  });

  it("refuses a path that is not UTF-8 with 400, with the headers", () => {
    const res = proxy(new NextRequest(`${ORIGIN}/turns/%ED%A0%80`));
    expect(res.status).toBe(400);
    expectBaseHeaders(res.headers);
    expect(res.headers.get("content-security-policy")).toBe(NO_CONTENT_CSP);
  });

  it("sees every path but static assets, the events API and the OTLP endpoint, whose headers next.config.ts and the route wrapper set", () => {
    const matcher = new RegExp(`^${config.matcher[0]}$`);
    for (const path of [
      "/",
      "/turns/abc",
      "/api/auth/get-session",
      "/api/v1/turns",
      "/api/health",
      "/favicon.ico",
    ])
      expect(matcher.test(path), path).toBe(true);
    for (const path of [
      "/_next/static/chunks/main.js",
      "/_next/image",
      "/api/v1/events",
      "/api/public/otel/v1/traces",
    ])
      expect(matcher.test(path), path).toBe(false);
  });
});

describe("next.config.ts headers(): static assets, the events API and the OTLP endpoint", () => {
  it("sends the base headers, the policy that allows nothing, and HSTS behind https, for exactly the paths the proxy skips", async () => {
    const rules = await nextConfig.headers!();
    for (const source of ["/_next/:path*", "/api/v1/events", "/api/public/otel/v1/traces"]) {
      const always = rules.find((r) => r.source === source && !r.has);
      expect(Object.fromEntries(always!.headers.map((h) => [h.key, h.value]))).toEqual({
        ...BASE_SECURITY_HEADERS,
        "content-security-policy": NO_CONTENT_CSP,
      });
      const https = rules.find((r) => r.source === source && r.has);
      expect(https!.has).toEqual([{ type: "header", key: "x-forwarded-proto", value: "https" }]);
      expect(https!.headers).toEqual([HSTS_HEADER]);
    }
  });
});

describe("route(): every API answer carries the headers", () => {
  it.each([
    ["a JSON answer", route("public", async () => ({ ok: true })), 200],
    [
      "an error",
      route("public", async () => Promise.reject(new NotFoundError("No such thing."))),
      404,
    ],
    [
      "a redirect (immutable headers)",
      route("public", async () => Response.redirect(`${ORIGIN}/`, 307)),
      307,
    ],
  ])("%s", async (_, handler, status) => {
    const res = await handler(new Request(`${ORIGIN}/api/x`), context);
    expect(res.status).toBe(status);
    expectBaseHeaders(res.headers);
    expect(res.headers.get("content-security-policy")).toBe(NO_CONTENT_CSP);
  });

  it("adds HSTS behind https", async () => {
    const res = await route("public", async () => ({}))(
      new Request(`${ORIGIN}/api/x`, { headers: { "x-forwarded-proto": "https" } }),
      context,
    );
    expectBaseHeaders(res.headers, true);
  });

  it("refuses a cookie's cross-origin write with 403 before asking who the caller is", async () => {
    const res = await route({ role: "editor", scope: "ingest" }, async () => ({ changed: true }))(
      new Request(`${ORIGIN}/api/v1/events`, {
        method: "POST",
        body: "{}",
        headers: {
          cookie: "better-auth.session_token=x",
          origin: "http://127.0.0.1:3001",
          "content-type": "application/json",
        },
      }),
      context,
    );
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
      "this request came from http://127.0.0.1:3001",
    );
    expectBaseHeaders(res.headers);
  });
});
