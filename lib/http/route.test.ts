import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  BadRequestError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
} from "@/lib/errors";
import { AnswerMismatchError, answerChecksOn, setAnswerChecks } from "./answer-check";
import { defineRoute } from "./contract";
import { operationOf } from "./openapi-operation";
import { DEFAULT_BODY_LIMITS, route } from "./route";

// route() with a contract (lib/http/contract.ts): the query and the body reach the handler
// parsed by the contract's schemas, and in tests every answer is checked against it.

const context = { params: Promise.resolve({}) };
const URL_BASE = "http://127.0.0.1:3000/api/x";

const thing = defineRoute({
  method: "POST",
  path: "/api/x",
  summary: "A thing",
  description: "For this test.",
  access: "public",
  query: z.object({ n: z.coerce.number().int().min(1).optional() }),
  body: { schema: z.strictObject({ name: z.string().min(1) }) },
  responses: {
    200: { description: "The thing.", schema: z.strictObject({ name: z.string(), n: z.number() }) },
    202: { description: "Later.", schema: z.strictObject({ queued: z.literal(true) }) },
  },
  errors: {
    400: { description: "Not JSON.", example: new BadRequestError("Not JSON.") },
    404: { description: "No thing.", example: new NotFoundError("No such thing.") },
    413: { description: "Too large.", example: new PayloadTooLargeError("Too large.") },
    422: { description: "Invalid.", example: new ValidationError("The input is invalid.") },
  },
});

const post = (body: string, query = "") =>
  new Request(`${URL_BASE}${query}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
  });

afterEach(() => setAnswerChecks(undefined));

describe("route() parses what its contract declares", () => {
  const handler = route(thing, ({ query, body }) => ({ name: body.name, n: query.n ?? 0 }));

  it("hands the handler the parsed query and body", async () => {
    const res = await handler(post('{"name":"a"}', "?n=3"), context);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: "a", n: 3 });
  });

  it.each([
    [
      "an invalid query parameter",
      '{"name":"a"}',
      "?n=0",
      "The query parameters are invalid.",
      "n",
    ],
    ["an invalid body field", '{"name":""}', "", "The request body is invalid.", "name"],
    ["an unknown body field", '{"name":"a","x":1}', "", "The request body is invalid.", "(root)"],
  ])("refuses %s with 422 naming it", async (_, body, query, message, path) => {
    const res = await handler(post(body, query), context);
    expect(res.status).toBe(422);
    const answer = (await res.json()) as {
      error: { code: string; message: string; details: { path: string }[] };
    };
    expect(answer.error).toMatchObject({ code: "invalid_input", message });
    expect(answer.error.details.map((d) => d.path)).toEqual([path]);
  });

  it("reads the body within DEFAULT_BODY_LIMITS: 413 past them, 400 for what is not JSON", async () => {
    const big = JSON.stringify({ name: "a".repeat(DEFAULT_BODY_LIMITS.bytes) });
    expect((await handler(post(big), context)).status).toBe(413);
    expect((await handler(post("{"), context)).status).toBe(400);
  });

  it("uses the route's own reader, and leaves the body unparsed when the handler parses it", async () => {
    const raw = route(
      defineRoute({ ...thing, body: { schema: thing.body.schema, parsedBy: "handler" } }),
      ({ body }) => ({ name: JSON.stringify(body), n: 1 }),
      { readBody: async () => ({ value: { any: "thing" } }) },
    );
    expect(await (await raw(post("ignored"), context)).json()).toEqual({
      name: '{"any":"thing"}',
      n: 1,
    });
  });

  it("sends a reply with another declared status and its headers", async () => {
    const later = route(thing, ({ reply }) => reply(202, { queued: true }, { "retry-after": "1" }));
    const res = await later(post('{"name":"a"}'), context);
    expect(res.status).toBe(202);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toEqual({ queued: true });
  });
});

describe("route() parses path parameters by the contract's schema", () => {
  const one = defineRoute({
    method: "GET",
    path: "/api/x/{id}",
    summary: "One thing",
    description: "For this test.",
    access: "public",
    params: z.object({ id: z.coerce.number().int().min(1).describe("The thing's id.") }),
    responses: { 200: { description: "It.", schema: z.object({ id: z.number() }) } },
    errors: { 422: { description: "Invalid.", example: new ValidationError("Invalid.") } },
  });
  const get = route(one, ({ params }) => ({ id: params.id }));
  const at = (id: string) =>
    get(new Request(`${URL_BASE}/${id}`), { params: Promise.resolve({ id }) });

  it("hands the handler the parsed parameter, and refuses a bad one with 422 naming it", async () => {
    expect(await (await at("7")).json()).toEqual({ id: 7 });
    const res = await at("x");
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      error: { message: "The path parameters are invalid.", details: [{ path: "id" }] },
    });
  });

  it("documents it as a required path parameter", () => {
    expect(operationOf(one).parameters).toEqual([
      {
        name: "id",
        in: "path",
        required: true,
        description: "The thing's id.",
        schema: {
          type: "integer",
          minimum: 1,
          maximum: Number.MAX_SAFE_INTEGER,
          description: "The thing's id.",
        },
      },
    ]);
  });
});

describe("route() checks every answer against its contract in tests", () => {
  it("is on under vitest (NODE_ENV=test)", () => {
    expect(answerChecksOn()).toBe(true);
  });

  it("rejects a body the 200 schema does not accept, naming the route and the field", async () => {
    // The cast stands for a handler whose types lie (a row mapped wrongly at run time).
    const wrong = route(
      thing,
      () => ({ name: "a", n: "3" }) as unknown as { name: string; n: number },
    );
    await expect(wrong(post('{"name":"a"}'), context)).rejects.toThrow(AnswerMismatchError);
    await expect(wrong(post('{"name":"a"}'), context)).rejects.toThrow(
      /^POST \/api\/x answered 200: the body breaks the contract's schema:\nn: /,
    );
  });

  it("rejects a status the contract does not declare", async () => {
    const teapot = route(thing, () => new Response("{}", { status: 418 }) as never);
    await expect(teapot(post('{"name":"a"}'), context)).rejects.toThrow(
      "POST /api/x answered 418: its contract declares only 200, 202, 400, 404, 413, 422",
    );
  });

  it("rejects an error answer that is not in the error shape, and takes one that is", async () => {
    const bare = route(thing, () => Response.json({ nope: true }, { status: 404 }) as never);
    await expect(bare(post('{"name":"a"}'), context)).rejects.toThrow(AnswerMismatchError);
    const shaped = route(thing, () => Promise.reject(new NotFoundError("No such thing.")));
    expect((await shaped(post('{"name":"a"}'), context)).status).toBe(404);
  });

  it("checks nothing when turned off (production)", async () => {
    setAnswerChecks(false);
    const wrong = route(thing, () => ({ name: 1 }) as unknown as { name: string; n: number });
    expect((await wrong(post('{"name":"a"}'), context)).status).toBe(200);
  });
});

describe("route() types the handler from its contract", () => {
  it("refuses, at compile time, an answer the schema's type does not allow", () => {
    // @ts-expect-error `n` must be a number
    route(thing, () => ({ name: "a", n: "3" }));
    // @ts-expect-error 201 is not a declared status
    route(thing, ({ reply }) => reply(201, { queued: true }));
    // @ts-expect-error a 202 carries `{queued: true}`
    route(thing, ({ reply }) => reply(202, { name: "a", n: 1 }));
    // @ts-expect-error a bare Response only with `answersWithResponse`
    route(thing, () => Response.json({ name: "a", n: 1 }));
    route(thing, () => Response.json({ name: "a", n: 1 }), { answersWithResponse: true });
    // @ts-expect-error `query.n` is a number (or absent), never a string
    route(thing, ({ query }) => ({ name: "a", n: query.n.length }));
    expect(true).toBe(true);
  });
});
