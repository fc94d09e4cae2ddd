/**
 * The fuzz bench's requests: agent events with poison in them (NULs, unpaired
 * surrogates, binary content, extreme dates, deep nesting, wrong types, bad JSON),
 * bodies over the limits, and bad parameters on every read path. Seeded, so a run
 * can be repeated exactly.
 */

export type Auth = "key" | "cookie" | "none";
export type FuzzRequest =
  | {
      kind: "fetch";
      group: string;
      method: "GET" | "POST";
      path: string;
      body?: string | Uint8Array;
      auth: Auth;
      contentType?: string;
    }
  /** A chunked body (no content-length) of up to `bytes`, stopped when the answer arrives. */
  | { kind: "stream"; group: string; path: string; bytes: number; auth: Auth };

export const EVENTS_PATH = "/api/v1/events";
const MiB = 1024 * 1024;

export class Cases {
  private n = 0;
  constructor(
    readonly rnd: () => number,
    private readonly run: string,
  ) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rnd() * items.length)]!;
  }
  int(max: number): number {
    return Math.floor(this.rnd() * max);
  }
  id(prefix: string): string {
    return `fuzz-${this.run}-${prefix}-${++this.n}`;
  }

  /** Text no database can store as it is, or just odd. */
  poisonText(): string {
    return this.pick([
      "\u0000",
      "a\u0000b",
      "\u0000".repeat(1000),
      "\ud800",
      "\udfff",
      "x\ud83d",
      "\udc00y",
      "\ud83d\ud83d",
      "😀\u0000😀",
      "\uFFFE\uFFFF",
      "\uFEFFbom",
      "\u0001\u001f\u007f\u0085",
      "\u202eevil",
      "",
      " ",
      "%00",
      "\\u0000",
      this.binary(64),
      "x".repeat(5000),
    ]);
  }

  /** A string of random code units 0..255 (a Write of binary content), sometimes with a surrogate. */
  binary(length: number): string {
    let text = "";
    for (let i = 0; i < length; i++) text += String.fromCharCode(this.int(256));
    return this.rnd() < 0.3 ? `${text}\ud800${text}` : text;
  }

  wrongType(): unknown {
    return this.pick([0, -1, 1e308, true, false, null, [], {}, ["a"], { a: 1 }, "12345678"]);
  }

  eventAt(): unknown {
    return this.pick([
      "0000-01-01T00:00:00Z",
      "0001-01-01T00:00:00Z",
      "1969-12-31T23:59:59Z",
      "1999-12-31T23:59:59.999Z",
      "9999-12-31T23:59:59Z",
      "9999-12-31T23:59:59.999999999-23:59",
      new Date(Date.now() + 2 * 86_400_000).toISOString(),
      "-000001-01-01T00:00:00Z",
      "+275760-09-13T00:00:00Z",
      "2024-02-30T00:00:00Z",
      "2023-02-29T00:00:00Z",
      "2024-01-01T24:00:00Z",
      "2024-01-01T00:00:60Z",
      `2024-01-01T00:00:00.${"9".repeat(500)}Z`,
      "2024-01-01T00:00:00+99:00",
      "2024-01-01",
      "2024-01-01T00:00:00",
      "2024-01-01T00:00:00\u0000Z",
      0,
      null,
      new Date().toISOString(),
      "2024-02-29T23:59:59+14:00",
    ]);
  }

  /** JSON text nested `depth` levels, built as text (JSON.stringify recurses). */
  deep(depth: number): string {
    const [open, close] = this.pick([
      ["[", "]"],
      ['{"a":', "}"],
      ['{"\\u0000":', "}"],
      ['[{"k":', "}]"],
    ] as const);
    const levels = open === '[{"k":' ? Math.ceil(depth / 2) : depth;
    return `${open.repeat(levels)}"bottom"${close.repeat(levels)}`;
  }

  /** A JSON value with poison in its keys and values. */
  poisonJson(): unknown {
    return {
      file_path: this.poisonText(),
      content: this.binary(this.pick([16, 256, 4096])),
      [this.poisonText()]: [this.poisonText(), { [this.poisonText()]: this.poisonText() }],
      ["__proto__"]: { constructor: this.poisonText(), polluted: true },
    };
  }

  /** A valid event of a random type; `extra` fields merged in. */
  event(session: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return this.eventOf(
      this.pick(["UserPromptSubmit", "PostToolUse", "PostToolUse", "Stop", "SessionEnd"] as const),
      session,
      extra,
    );
  }

  /** A valid event of `type`; `extra` fields merged in. */
  eventOf(
    type: "UserPromptSubmit" | "PostToolUse" | "Stop" | "SessionEnd",
    session: string,
    extra: Record<string, unknown> = {},
  ): Record<string, unknown> {
    const base = { id: this.id("e"), session_id: session };
    const bodies = {
      UserPromptSubmit: { type, prompt: "refactor the parser and add tests" },
      PostToolUse: {
        type,
        tool_name: this.pick(["Write", "Bash", "Edit", "Read"]),
        tool_input: { command: "ls" },
        tool_response: { stdout: "ok" },
      },
      Stop: { type, response: "Done: the parser is split and tested." },
      SessionEnd: { type, reason: "exit" },
    };
    return { ...base, ...bodies[type], ...extra };
  }

  /** One event with one to three poison mutations. */
  mutatedEvent(session: string): {
    value: Record<string, unknown>;
    deep?: { field: string; depth: number };
  } {
    const event = this.event(session);
    let deep: { field: string; depth: number } | undefined;
    const fields = [
      "id",
      "session_id",
      "cwd",
      "transcript_path",
      "prompt",
      "tool_name",
      "tool_use_id",
      "response",
      "action",
      "reason",
      "type",
      "at",
      "context_utilization",
      "context_delivered",
      "tool_input",
      "tool_response",
      "unknown_field",
    ];
    for (let i = 0, count = 1 + this.int(3); i < count; i++) {
      const field = this.pick(fields);
      const roll = this.rnd();
      if (field === "at") event.at = this.eventAt();
      else if ((field === "tool_input" || field === "tool_response") && roll < 0.35)
        deep = { field, depth: this.pick([63, 64, 65, 100, 1000, 5000, 100_000]) };
      else if (field === "tool_input" || field === "tool_response")
        event[field] = roll < 0.7 ? this.poisonJson() : this.wrongType();
      else if (roll < 0.15) delete event[field];
      else if (roll < 0.3) event[field] = this.wrongType();
      else event[field] = this.poisonText();
    }
    return { value: event, deep };
  }

  /** JSON text of an event, with a deep value spliced in as text. */
  eventText(mutated: {
    value: Record<string, unknown>;
    deep?: { field: string; depth: number };
  }): string {
    const text = JSON.stringify(mutated.value);
    return mutated.deep
      ? text.replace(/}$/, `,"${mutated.deep.field}":${this.deep(mutated.deep.depth)}}`)
      : text;
  }

  /** JSON text with raw bytes that are not UTF-8 inside a string. */
  invalidUtf8(session: string): Uint8Array {
    const text = JSON.stringify(this.eventOf("UserPromptSubmit", session, { prompt: "BAD" }));
    const bytes = Buffer.from(text);
    const at = bytes.indexOf("BAD");
    bytes.set(
      this.pick([
        [0xff, 0xfe, 0xfd],
        [0xc3, 0x28, 0x41],
        [0xed, 0xa0, 0x80],
        [0xf4, 0x90, 0x80],
      ]),
      at,
    );
    return bytes;
  }

  /** Bodies that are not events at all. */
  malformedBody(): string {
    return this.pick([
      "",
      "{",
      "null",
      "[]",
      "[1,2,3]",
      '"string"',
      "5",
      '{"events":[]}',
      '{"events":{}}',
      '{"events":null}',
      `{"events":[${"{},".repeat(1000)}{}]}`,
      '{"type":"Stop"}',
      '{"type":"Stop","id":"short","session_id":"s"}',
      '{"type":"Stop"\u0000}',
      '{"type":"Stop","id":"12345678","session_id":"s","response":"\u0001raw control"}',
      '{"a":1,"a":2}',
      '{"__proto__":{"polluted":true},"type":"Stop","id":"12345678","session_id":"s"}',
      `{"type":"Stop","id":"12345678","session_id":"s","response":"${"\\ud800".repeat(100)}"}`,
      "\uFEFF{}",
      this.deep(200_000),
    ]);
  }
}

/** Values for the read paths' parameters: bad ones mostly, some good. */
const DAYS = [
  "0000-01-01",
  "0001-01-01",
  "1969-12-31",
  "1970-01-01",
  "9999-12-31",
  "10000-01-01",
  "-0001-01-01",
  "2024-02-30",
  "2024-13-01",
  "x",
  "",
  "\u0000",
  "2026-01-15",
];
const INSTANTS = [
  "0000-01-01T00:00:00Z",
  "0000-01-01T00:00:00.000Z",
  "9999-12-31T23:59:59.999Z",
  "+275760-09-13T00:00:00.000Z",
  "1969-12-31T23:59:59Z",
  "yesterday",
  "",
  "\u0000",
  "2026-01-15T00:00:00.000Z",
  "2026-01-15",
];
const NUMBERS = [
  "-1",
  "2",
  "NaN",
  "Infinity",
  "1e309",
  "0x1",
  "",
  "0.5",
  "1",
  "0",
  "\u0000",
  "9".repeat(400),
];
const BIG_IDS = [
  "99999999999999999999999",
  "9223372036854775807",
  "9223372036854775808",
  "-1",
  "0",
  "1.5",
  "abc",
  "\u0000",
  "",
  "00000000000000000001",
];
const TEXTS = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "s".repeat(300),
  "x".repeat(10_000),
  "",
  "fuzz",
  "%",
  "'; DROP TABLE turn; --",
  "__proto__",
  "constructor",
];

/** A query string value encoded by hand: an unpaired surrogate is sent as the bytes ED A0 80, which are not UTF-8. */
function encode(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value.slice(i, i + 2));
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += "%ED%A0%80";
    } else {
      out += encodeURIComponent(value[i]!);
    }
  }
  return out;
}

function query(params: [string, string][]): string {
  return params.map(([k, v]) => `${k}=${encode(v)}`).join("&");
}

export function cursorOf(c: Cases): string {
  const value = c.pick<unknown>([
    { scoredAt: "0000-01-01T00:00:00.000Z", turnId: "t" },
    { scoredAt: "9999-12-31T23:59:59.999Z", turnId: "t" },
    { scoredAt: "2026-01-01T00:00:00.000Z", turnId: "t\u0000" },
    { scoredAt: "2026-01-01T00:00:00.000Z", turnId: "\ud800" },
    { scoredAt: 12, turnId: "t" },
    { scoredAt: "2026-01-01T00:00:00.000Z" },
    [],
    null,
    "x".repeat(2000),
  ]);
  return c.pick([
    Buffer.from(JSON.stringify(value)).toString("base64url"),
    "not-a-cursor",
    "%%%",
    "\u0000",
    "",
    "eyJ",
  ]);
}

/** A read route taking an API key: GET /api/v1/turns mostly, the raw file download of the history sometimes. */
export function readApiRequest(c: Cases): FuzzRequest {
  if (c.rnd() < 0.2) {
    const path = `/constitution/history/raw?${query([
      ["version", c.pick([...BIG_IDS, ...NUMBERS, "1e30", "2147483648", "1"])],
      ["path", c.pick([...TEXTS, "core.yaml", "../../etc/passwd"])],
    ])}`;
    return {
      kind: "fetch",
      group: "read: GET /constitution/history/raw",
      method: "GET",
      path,
      auth: "key",
    };
  }
  return turnsApiRequest(c);
}

/** GET /api/v1/turns with one to four fuzzed parameters. */
function turnsApiRequest(c: Cases): FuzzRequest {
  const params: [string, string][] = [];
  for (let i = 0, count = 1 + c.int(4); i < count; i++) {
    const name = c.pick([
      "session",
      "from",
      "to",
      "min",
      "max",
      "principle",
      "below",
      "cursor",
      "unknown",
    ]);
    const value =
      name === "from" || name === "to"
        ? c.pick(DAYS)
        : name === "cursor"
          ? cursorOf(c)
          : name === "min" || name === "max" || name === "below"
            ? c.pick(NUMBERS)
            : name === "principle"
              ? c.pick(["ethical", "joy_inducing", "nope", "\u0000", ""])
              : c.pick(TEXTS);
    params.push([name, value]);
  }
  return {
    kind: "fetch",
    group: "read: GET /api/v1/turns",
    method: "GET",
    path: `/api/v1/turns?${query(params)}`,
    auth: c.rnd() < 0.05 ? "none" : "key",
  };
}

/** A dashboard page with fuzzed search params or path segments. */
export function pageRequest(c: Cases, auth: Auth): FuzzRequest {
  const segment = () => encode(c.pick(TEXTS)) || "x";
  const path = c.pick([
    () =>
      `/turns?${query([
        [c.pick(["from", "to"]), c.pick(DAYS)],
        ["session", c.pick(TEXTS)],
        [c.pick(["min", "below"]), c.pick(NUMBERS)],
      ])}`,
    () => `/sessions?${query([["before", c.pick(INSTANTS)]])}`,
    () =>
      `/audit?${query([
        ["before", c.pick(BIG_IDS)],
        ["type", c.pick(TEXTS)],
      ])}`,
    () =>
      `/playbook?${query([
        ["q", c.pick(TEXTS)],
        ["status", c.pick(["", "active", "all", "\u0000", "nope"])],
      ])}`,
    () => `/retrieval?${query([["prompt", c.pick(TEXTS)]])}`,
    () =>
      `/constitution/history?${query([
        ["a", c.pick(BIG_IDS)],
        ["b", c.pick(NUMBERS)],
      ])}`,
    () => `/constitution/evals?${query([["version", c.pick(BIG_IDS)]])}`,
    () => `/sessions/${segment()}`,
    () => `/turns/${segment()}`,
    () => `/principles/${segment()}`,
    () => `/docs/${segment()}`,
    () => `/constitution/overlays/${segment()}`,
  ])();
  return {
    kind: "fetch",
    group: auth === "cookie" ? "read: dashboard pages" : "read: dashboard pages (not signed in)",
    method: "GET",
    path,
    auth,
  };
}

/** The large requests, sent one at a time. */
export function hugeRequests(c: Cases): FuzzRequest[] {
  const session = c.id("huge");
  const over = `{"type":"UserPromptSubmit","id":"${c.id("e")}","session_id":"${session}","prompt":"${"x".repeat(16 * MiB)}"}`;
  const bigString = JSON.stringify(
    c.eventOf("PostToolUse", session, {
      tool_name: "Write",
      tool_input: { content: "y".repeat(15 * MiB) },
    }),
  );
  const tokens = `[${"{},".repeat(Math.floor((16 * MiB - 4) / 3))}{}]`;
  const manyKeys = `{${Array.from({ length: 600_000 }, (_, i) => `"k${i}":0`).join(",")}}`;
  const manyEvents = JSON.stringify({
    events: Array.from({ length: 1001 }, () => c.event(session)),
  });
  const fetches: [string, string][] = [
    ["huge: 16 MiB + a prompt (declared length)", over],
    ["huge: 15 MiB tool_input (in bounds)", bigString],
    ["huge: 16 MiB of [{},{},…] (token bound)", tokens],
    ["huge: 600k keys (token bound)", manyKeys],
    ["huge: 1001 events", manyEvents],
  ];
  const out: FuzzRequest[] = [];
  for (const [group, body] of fetches)
    for (let i = 0; i < 3; i++)
      out.push({ kind: "fetch", group, method: "POST", path: EVENTS_PATH, body, auth: "key" });
  for (const bytes of [17 * MiB, 64 * MiB, 400 * MiB])
    for (let i = 0; i < 2; i++)
      out.push({
        kind: "stream",
        group: "huge: chunked body over 16 MiB",
        path: EVENTS_PATH,
        bytes,
        auth: "key",
      });
  return out;
}
