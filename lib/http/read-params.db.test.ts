import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getRawFile } from "@/app/(dashboard)/constitution/history/raw/route";
import { GET } from "@/app/api/v1/turns/route";
import { parsePlaybookQuery } from "@/components/playbook/query";
import { parseTurnQuery, toTurnFilters } from "@/components/turns/filters";
import { auditLog } from "@/lib/db/audit";
import { keyPoints } from "@/lib/db/key-points";
import { principles } from "@/lib/db/principles";
import { sessions } from "@/lib/db/sessions";
import { encodeCursor, turns } from "@/lib/db/turns";
import { NotFoundError } from "@/lib/errors";
import { auditQuerySchema } from "@/lib/schemas/audit";
import {
  BIGINT_MAX,
  INTEGER_MAX,
  parseSearchParams,
  QUERY_DATE_MAX,
  QUERY_DATE_MIN,
  QUERY_INSTANT_MAX_MS,
} from "@/lib/schemas/query";
import { sessionsQuerySchema } from "@/lib/schemas/sessions";
import { UNSTORABLE_MESSAGE } from "@/lib/schemas/text";
import { setupTestDatabase } from "@/test/db";

vi.mock("@/lib/auth/caller", async (original) => ({
  ...(await original<typeof import("@/lib/auth/caller")>()),
  resolveCaller: async () => ({
    kind: "api_key",
    keyId: "read-test",
    name: "read-test",
    ownerId: "read-test",
    scopes: ["read"],
  }),
}));

let teardown: () => Promise<void>;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
});
afterAll(() => teardown());

const context = { params: Promise.resolve({}) };
const get = (query: string) => GET(new Request(`http://127.0.0.1/api/v1/turns?${query}`), context);
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const RANGE = `must be from ${QUERY_DATE_MIN} to ${QUERY_DATE_MAX}`;
const NOT_A_CURSOR = "is not the `next` value of a page";

type ErrorBody = { error: { code: string; details?: { path: string; message: string }[] } };

describe("GET /api/v1/turns refuses bad parameters with 422 naming them", () => {
  it.each([
    ["from=0000-01-01", "from", RANGE],
    ["to=1969-12-31", "to", RANGE],
    ["from=2024-02-30", "from", "must be a date, YYYY-MM-DD"],
    ["session=%00", "session", UNSTORABLE_MESSAGE],
    ["session=a%00b", "session", UNSTORABLE_MESSAGE],
    [`session=${"s".repeat(201)}`, "session", "Too big: expected string to have <=200 characters"],
    ["min=abc", "min", "Invalid input: expected number, received NaN"],
    ["below=2", "below", "Too big: expected number to be <=1"],
    ["cursor=not-a-cursor", "cursor", NOT_A_CURSOR],
    [
      `cursor=${cursorOf({ scoredAt: "0000-01-01T00:00:00.000Z", turnId: "t" })}`,
      "cursor",
      NOT_A_CURSOR,
    ],
    [
      `cursor=${cursorOf({ scoredAt: "2026-01-01T00:00:00.000Z", turnId: "t\u0000" })}`,
      "cursor",
      NOT_A_CURSOR,
    ],
    [`cursor=${cursorOf({ scoredAt: "2026-01-01T00:00:00.000Z" })}`, "cursor", NOT_A_CURSOR],
    [`cursor=${"A".repeat(1001)}`, "cursor", "Too big: expected string to have <=1000 characters"],
  ])("%s", async (query, path, message) => {
    const res = await get(query);
    expect(res.status).toBe(422);
    expect(((await res.json()) as ErrorBody).error.details).toEqual([{ path, message }]);
  });

  it("takes the extreme dates and a well-formed cursor to the database", async () => {
    for (const query of [
      `from=${QUERY_DATE_MIN}&to=${QUERY_DATE_MAX}`,
      `to=${QUERY_DATE_MAX}`,
      `cursor=${encodeCursor({ scoredAt: "9999-12-31T23:59:59.999Z", turnId: "t" })}`,
    ]) {
      const res = await get(query);
      expect(res.status).toBe(200);
      expect(await res.json()).toHaveProperty("rows");
    }
  });
});

describe("GET /constitution/history/raw refuses a version no integer column holds", () => {
  it.each([
    ["1e30", "must be a whole number"],
    [String(INTEGER_MAX + 1), `must be at most ${INTEGER_MAX}`],
    ["0", "must be at least 1"],
    ["1.5", "must be a whole number"],
  ])("version=%s", async (version, message) => {
    const res = await getRawFile(
      new Request(`http://127.0.0.1/constitution/history/raw?version=${version}&path=core.yaml`),
      context,
    );
    expect(res.status).toBe(422);
    expect(((await res.json()) as ErrorBody).error.details).toEqual([{ path: "version", message }]);
  });
});

describe("dashboard pages read their parameters without reaching the database with bad ones", () => {
  it("Turns: reports a year-0 day and a NUL session, and lists with the rest", async () => {
    const { query, problems } = parseTurnQuery({
      from: "0000-01-01",
      session: "\u0000",
      min: "0.5",
    });
    expect(problems).toEqual([
      { field: "session", message: UNSTORABLE_MESSAGE },
      { field: "from", message: RANGE },
    ]);
    expect(query).toEqual({ min: 0.5 });
    await expect(turns.list(toTurnFilters(query))).resolves.toHaveProperty("rows");
  });

  it.each([
    ["0000-01-01T00:00:00Z", RANGE],
    [
      "+275760-09-13T00:00:00.000Z",
      "must be an ISO 8601 time with an offset, e.g. 2026-01-31T12:00:00.000Z",
    ],
    ["yesterday", "must be an ISO 8601 time with an offset, e.g. 2026-01-31T12:00:00.000Z"],
  ])("Sessions: reports before=%s", (before, message) => {
    expect(parseSearchParams(sessionsQuerySchema, { before })).toEqual({
      query: {},
      problems: [{ field: "before", message }],
    });
  });

  it("Sessions: lists before the extreme instants", async () => {
    await expect(sessions.list({ before: new Date(QUERY_INSTANT_MAX_MS) })).resolves.toBeInstanceOf(
      Array,
    );
    await expect(
      sessions.list({ before: new Date(`${QUERY_DATE_MIN}T00:00:00.000Z`) }),
    ).resolves.toEqual([]);
  });

  it.each([
    [
      { before: "99999999999999999999999" },
      [{ field: "before", message: "must be a whole number" }],
    ],
    [{ before: "-1" }, [{ field: "before", message: "must be a whole number" }]],
    [
      { before: (BIGINT_MAX + 1n).toString() },
      [{ field: "before", message: `must be at most ${BIGINT_MAX}` }],
    ],
    [{ type: "user\u0000" }, [{ field: "type", message: UNSTORABLE_MESSAGE }]],
  ])("Audit: reports %j", (params, problems) => {
    expect(parseSearchParams(auditQuerySchema, params)).toEqual({ query: {}, problems });
  });

  it("Audit: lists before the largest bigint id", async () => {
    const { query, problems } = parseSearchParams(auditQuerySchema, {
      before: BIGINT_MAX.toString(),
      type: "user",
    });
    expect(problems).toEqual([]);
    await expect(
      auditLog.list({ before: query.before, objectType: query.type, limit: 1 }),
    ).resolves.toBeInstanceOf(Array);
  });

  it("Playbook: searches for a NUL as the U+FFFD it is stored as", async () => {
    const { q } = parsePlaybookQuery({ q: "a\u0000b" });
    expect(q).toBe("a\uFFFDb");
    await expect(keyPoints.list({ q })).resolves.toEqual([]);
  });

  it.each([
    ["session", () => sessions.get("s\u0000")],
    ["turn", () => turns.get("t\u0000")],
    ["principle", () => principles.get("p\u0000")],
  ])("a %s id with a NUL is not found (404), never a database error", async (_name, load) => {
    await expect(load()).rejects.toBeInstanceOf(NotFoundError);
  });
});
