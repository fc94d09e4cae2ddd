import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_EVENTS_BODY_BYTES, MAX_EVENTS_BODY_TOKENS, POST } from "@/app/api/v1/events/route";
import { db } from "@/lib/db/client";
import { MAX_JSON_DEPTH } from "@/lib/schemas/text";
import { ensureConstitution } from "@/lib/services/constitution";
import { setupTestDatabase, unique } from "@/test/db";

// The caller is not what these tests are about: every request comes with an ingest key.
vi.mock("@/lib/auth/caller", async (original) => ({
  ...(await original<typeof import("@/lib/auth/caller")>()),
  resolveCaller: async () => ({
    kind: "api_key",
    keyId: "edge-test",
    name: "edge-test",
    ownerId: "edge-test",
    scopes: ["ingest", "read"],
  }),
}));

let teardown: () => Promise<void>;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
});
afterAll(() => teardown());

const URL_ = "http://127.0.0.1/api/v1/events";
const context = { params: Promise.resolve({}) };

function post(body: BodyInit, headers: Record<string, string> = {}): Promise<Response> {
  return POST(
    new Request(URL_, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", ...headers },
      duplex: "half",
    } as RequestInit),
    context,
  );
}
const postJson = (value: unknown) => post(JSON.stringify(value));

/** JSON text of `{"a": {"a": … "bottom"}}` `depth` levels deep, built as text (JSON.stringify recurses). */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}"bottom"${"}".repeat(depth)}`;
/** JSON text of an event with `json` spliced in as the value of `field`. */
const withJson = (event: Record<string, unknown>, field: string, json: string) =>
  JSON.stringify(event).replace(/}$/, `,"${field}":${json}}`);

type ErrorBody = {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
};

describe("POST /api/v1/events: text is normalized at the edge", () => {
  it("stores a Write of binary content, NULs and lone surrogates in values and keys replaced by U+FFFD", async () => {
    const session = unique("edge-nul");
    const res = await postJson({
      events: [
        {
          type: "UserPromptSubmit",
          id: unique("evt"),
          session_id: session,
          prompt: "write\u0000it \ud83d",
          cwd: "/repo\u0000x",
        },
        {
          type: "PostToolUse",
          id: unique("evt"),
          session_id: session,
          tool_name: "Write",
          tool_input: {
            file_path: "a.bin",
            content: "PK\u0003\u0004\u0000\u0000\udc00end",
            "k\u0000ey": ["\ud800", { "\udfff": 1 }],
          },
          tool_response: { type: "create", content: "\u0000" },
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ accepted: 2, duplicates: 0 });
    const turn = await db().turn.findFirstOrThrow({ where: { sessionId: session } });
    expect(turn.prompt).toBe("write\uFFFDit \uFFFD");
    expect((await db().agentSession.findUniqueOrThrow({ where: { id: session } })).cwd).toBe(
      "/repo\uFFFDx",
    );
    const tool = await db().toolCall.findFirstOrThrow({ where: { sessionId: session } });
    expect(tool.input).toEqual({
      file_path: "a.bin",
      content: "PK\u0003\u0004\uFFFD\uFFFD\uFFFDend",
      "k\uFFFDey": ["\uFFFD", { "\uFFFD": 1 }],
    });
    expect(tool.output).toBe('{"type":"create","content":"\uFFFD"}');
  });

  it("keeps a well-formed surrogate pair and stores a NUL in the session id as U+FFFD", async () => {
    const session = `${unique("edge-id")}\u0000`;
    const res = await postJson({
      type: "UserPromptSubmit",
      id: unique("evt"),
      session_id: session,
      prompt: "emoji 😀 stays",
    });
    expect(res.status).toBe(200);
    const stored = await db().turn.findFirstOrThrow({
      where: { sessionId: session.replace("\u0000", "\uFFFD") },
    });
    expect(stored.prompt).toBe("emoji 😀 stays");
  });

  it("reads bytes that are not UTF-8 as U+FFFD", async () => {
    const session = unique("edge-utf8");
    const json = Buffer.from(
      JSON.stringify({
        type: "UserPromptSubmit",
        id: unique("evt"),
        session_id: session,
        prompt: "bad:XY",
      }),
    );
    const at = json.indexOf("XY");
    json[at] = 0xff;
    json[at + 1] = 0xc3;
    const res = await post(json);
    expect(res.status).toBe(200);
    expect((await db().turn.findFirstOrThrow({ where: { sessionId: session } })).prompt).toBe(
      "bad:\uFFFD\uFFFD",
    );
  });
});

describe("POST /api/v1/events: dates and depth are bounded", () => {
  it.each([["0000-01-01T00:00:00Z"], ["1999-12-31T23:59:59.999Z"], ["9999-12-31T23:59:59Z"]])(
    "refuses at=%s with 422 naming the field",
    async (at) => {
      const res = await postJson({
        events: [{ type: "Stop", id: unique("evt"), session_id: unique("edge-at"), at }],
      });
      expect(res.status).toBe(422);
      expect(((await res.json()) as ErrorBody).error.details).toEqual([
        {
          path: "events.0.at",
          message: "must be from 2000-01-01T00:00:00Z to one day after the server's clock",
        },
      ]);
    },
  );

  it("stores an in-bounds at with an offset in UTC", async () => {
    const session = unique("edge-at");
    const res = await postJson({
      type: "UserPromptSubmit",
      id: unique("evt"),
      session_id: session,
      prompt: "hi",
      at: "2024-02-29T10:00:00.5+05:30",
    });
    expect(res.status).toBe(200);
    expect(
      (
        await db().agentSession.findUniqueOrThrow({ where: { id: session } })
      ).startedAt.toISOString(),
    ).toBe("2024-02-29T04:30:00.500Z");
  });

  it("refuses a tool_input nested 5,000 deep with 422 naming the event and field", async () => {
    const session = unique("edge-deep");
    const prompt = JSON.stringify({
      type: "UserPromptSubmit",
      id: unique("evt"),
      session_id: session,
      prompt: "go",
    });
    const tool = withJson(
      { type: "PostToolUse", id: unique("evt"), session_id: session, tool_name: "Bash" },
      "tool_input",
      nested(5000),
    );
    const res = await post(`{"events":[${prompt},${tool}]}`);
    expect(res.status).toBe(422);
    expect(((await res.json()) as ErrorBody).error.details).toEqual([
      { path: "events.1.tool_input", message: "nested deeper than 64 levels" },
    ]);
    expect(await db().agentSession.count({ where: { id: session } })).toBe(0);
  });

  it("takes a tool_response nested exactly MAX_JSON_DEPTH deep, and refuses one level more", async () => {
    const session = unique("edge-depth");
    const event = () => ({
      type: "PostToolUse",
      id: unique("evt"),
      session_id: session,
      tool_name: "Bash",
    });
    const ok = await post(withJson(event(), "tool_response", nested(MAX_JSON_DEPTH)));
    expect(ok.status).toBe(200);
    const over = await post(withJson(event(), "tool_response", `[${nested(MAX_JSON_DEPTH)}]`));
    expect(over.status).toBe(422);
    expect(((await over.json()) as ErrorBody).error.details).toEqual([
      { path: "tool_response", message: "nested deeper than 64 levels" },
    ]);
  });
});

describe("POST /api/v1/events: the body is bounded while it is read", () => {
  it("answers 413 for a declared length over the limit", async () => {
    const res = await post("{}", { "content-length": String(MAX_EVENTS_BODY_BYTES + 1) });
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
    expect(((await res.json()) as ErrorBody).error).toEqual({
      code: "payload_too_large",
      message: `The request is ${MAX_EVENTS_BODY_BYTES + 1} bytes; the limit is ${MAX_EVENTS_BODY_BYTES}.`,
    });
  });

  it("stops reading a chunked body as soon as it passes the limit", async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await post(body as unknown as BodyInit);
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
    expect(((await res.json()) as ErrorBody).error.message).toBe(
      `The request is over the limit of ${MAX_EVENTS_BODY_BYTES} bytes.`,
    );
    // The stream is endless: past the limit, at most DISCARD_MAX_BYTES (16 MiB) more were read and
    // dropped (so that a client still sending can read the answer); then reading stopped, and stays stopped.
    const atAnswer = pulled;
    expect(atAnswer).toBeGreaterThan(MAX_EVENTS_BODY_BYTES + 15 * chunk.byteLength);
    expect(atAnswer).toBeLessThanOrEqual(MAX_EVENTS_BODY_BYTES + (16 + 4) * chunk.byteLength);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pulled).toBe(atAnswer);
  });

  it("refuses a small body with too many JSON values before parsing it", async () => {
    const res = await post(`[${"0,".repeat(MAX_EVENTS_BODY_TOKENS)}0]`);
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
    expect(((await res.json()) as ErrorBody).error.message).toBe(
      `The request holds more than ${MAX_EVENTS_BODY_TOKENS} JSON values and keys; send fewer events per request.`,
    );
  });

  it.each([
    ["not JSON", "{", 400],
    ["a raw NUL byte", '{"type":"Stop"\u0000}', 400],
    ["an empty body", "", 400],
    ["a number", "5", 422],
    ["an empty batch", '{"events":[]}', 422],
    ["an array of events", "[]", 422],
  ])("answers %s with a 4xx", async (_name, body, status) => {
    expect((await post(body)).status).toBe(status);
  });
});

describe("POST /api/v1/events: errors name the field at fault", () => {
  it.each([
    ["one event without session_id", { type: "Stop", id: "evt-12345678" }, "session_id"],
    [
      "one event of an unknown type",
      { type: "PreToolUse", id: "evt-12345678", session_id: "s" },
      "type",
    ],
    [
      "a batch with a wrong type in its third event",
      {
        events: [
          { type: "Stop", id: "evt-1-12345678", session_id: "s" },
          { type: "Stop", id: "evt-2-12345678", session_id: "s" },
          { type: "Stop", id: "evt-3-12345678", session_id: 7 },
        ],
      },
      "events.2.session_id",
    ],
    ["a batch with an extra key", { events: [], extra: 1 }, "(root)"],
  ])("%s", async (_name, body, path) => {
    const res = await postJson(body);
    expect(res.status).toBe(422);
    expect(((await res.json()) as ErrorBody).error.details?.map((d) => d.path)).toContain(path);
  });
});
