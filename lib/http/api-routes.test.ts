import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { API_ROUTES, eventsRoute, healthRoute, turnsRoute } from "./api-routes";
import { statusesOf } from "./contract";
import { EVENTS_ACCESS, EVENTS_PATH, MAX_EVENTS_BODY_BYTES } from "./events";

// The registry (./api-routes.ts) and the route files under app/api agree: each handler a
// route file exports enforces the registry's contract for its path and method, and each
// contract has its handler. The OpenAPI document is generated from the registry, so a
// route missing here would be missing from the document.

const ROOT = path.resolve(import.meta.dirname, "../..");
const API_DIR = path.join(ROOT, "app/api");
/** Better Auth's own endpoints: not Charter's API (lib/auth/endpoints.db.test.ts covers them). */
const NOT_IN_REGISTRY = ["auth/[...all]/route.ts"];
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

const routeFiles = readdirSync(API_DIR, { recursive: true, encoding: "utf8" })
  .filter((file) => path.basename(file) === "route.ts")
  .map((file) => file.split(path.sep).join("/"))
  .filter((file) => !NOT_IN_REGISTRY.includes(file))
  .sort();

/** app/api/v1/openapi.json/route.ts -> /api/v1/openapi.json; a [segment] -> {segment}. */
const pathOf = (file: string) =>
  `/api/${path.posix.dirname(file)}`.replace(/\[([^\]]+)\]/g, "{$1}");

/** The methods a route file exports, read from its text (so that nothing is missed by an import that fails). */
const exportedMethods = (file: string) =>
  METHODS.filter((method) =>
    new RegExp(`export const ${method}\\b`).test(readFileSync(path.join(API_DIR, file), "utf8")),
  );

const fileOperations = routeFiles.flatMap((file) =>
  exportedMethods(file).map((method) => ({ file, method, path: pathOf(file) })),
);

describe("the registry of API routes", () => {
  it("finds the route files it checks", () => {
    expect(routeFiles).toEqual([
      "health/route.ts",
      "public/otel/v1/traces/route.ts",
      "v1/events/route.ts",
      "v1/openapi.json/route.ts",
      "v1/recompute/route.ts",
      "v1/turns/route.ts",
    ]);
  });

  it("has exactly one contract per method each route file exports", () => {
    expect(API_ROUTES.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      fileOperations.map((op) => `${op.method} ${op.path}`).sort(),
    );
  });

  it.each(fileOperations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    "%s enforces the registry's contract",
    async (_name, { file, method, path: routePath }) => {
      const mod = (await import(/* @vite-ignore */ path.join(API_DIR, file))) as Record<
        string,
        { contract?: unknown }
      >;
      const contract = API_ROUTES.find((r) => r.method === method && r.path === routePath);
      expect(contract).toBeDefined();
      expect(mod[method]?.contract).toBe(contract);
    },
    60_000,
  );

  /** Whether a query schema can refuse anything: here, every parameter set to junk (health's ignores a bad `auth`). */
  const refusesJunk = (query: z.ZodObject) =>
    !query.safeParse(Object.fromEntries(Object.keys(query.shape).map((k) => [k, "\u0000junk"])))
      .success;

  // What route() itself can answer, whatever the handler does: a contract must list it.
  it.each(API_ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))(
    "%s declares every status route() can give it",
    (_name, contract) => {
      const needed = [
        ...(contract.access === "public" ? [] : [401, 403, 503]),
        // A body the route parses is refused with 422 when its schema refuses it; a handler that reads its own decides.
        ...("body" in contract
          ? [400, 413, ...(contract.body.parsedBy === "handler" ? [] : [422])]
          : []),
        ...("query" in contract && refusesJunk(contract.query) ? [422] : []),
      ];
      expect(statusesOf(contract)).toEqual(expect.arrayContaining(needed));
    },
  );

  it("tells a query schema that can refuse from one that cannot", () => {
    expect(refusesJunk(turnsRoute.query)).toBe(true);
    expect(refusesJunk(healthRoute.query)).toBe(false);
  });

  it("gives the events route the access, path and size limit the way in without the router uses", () => {
    expect(eventsRoute.access).toEqual(EVENTS_ACCESS);
    expect(eventsRoute.path).toBe(EVENTS_PATH);
    expect(eventsRoute.errors[413].example.message).toContain(String(MAX_EVENTS_BODY_BYTES));
  });
});
