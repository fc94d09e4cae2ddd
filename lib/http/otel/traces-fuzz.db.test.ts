import { gzipSync } from "node:zlib";
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/public/otel/v1/traces/route";
import { SYSTEM_ACTOR } from "@/lib/db/audit";
import { apiKeys } from "@/lib/db/api-keys";
import { users } from "@/lib/db/users";
import { resetEnv } from "@/lib/env";
import {
  AI_SDK_EXPORT,
  AI_SDK_LEGACY_EXPORT,
  OPENAI_AGENTS_EXPORT,
  OPENLLMETRY_EXPORT,
} from "@/lib/otel/fixtures";
import { random } from "@/lib/random";
import { ensureConstitution } from "@/lib/services/constitution";
import { setupTestDatabase, unique } from "@/test/db";
import { agentTurnSpans } from "@/test/otel";

// 2,000 fuzzed OTLP requests, seeded (the same every run), against the route handler: JSON and
// protobuf exports (the fixtures', and the SDK's own serializers' bytes) mutated as
// bytes (bits flipped, cut, spliced, random) and as JSON (a value anywhere replaced by
// junk: wrong types, deep nesting, unstorable text, huge numbers), gzipped or not, under
// the right or a wrong Content-Type. None may be answered 5xx.

const COUNT = 2_000;
const SEED = 25;
let teardown: () => Promise<void>;
let key = "";

beforeAll(async () => {
  process.env.BETTER_AUTH_SECRET ??= "otel-fuzz-test-secret-0123456789abcdef";
  resetEnv();
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
  const owner = await users.create(
    { email: `${unique("otel-fuzz")}@example.test`, name: "Owner", role: "editor" },
    SYSTEM_ACTOR,
  );
  key = (
    await apiKeys.create(
      { name: unique("otel-fuzz-key"), scopes: ["ingest"], ownerId: owner.id },
      SYSTEM_ACTOR,
    )
  ).key;
});
afterAll(() => teardown());

type Seed = { encoding: "json" | "protobuf"; bytes: Uint8Array };

async function seeds(): Promise<Seed[]> {
  const text = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
  const spans = await agentTurnSpans({
    service: "fuzz-agent",
    conversationId: "fuzz-conversation",
    prompt: "Rename the upload helper",
    tool: { name: "edit", callId: "call_fuzz", arguments: { path: "a.ts" }, result: "ok" },
    reply: "Renamed.",
  });
  return [
    ...[OPENAI_AGENTS_EXPORT, AI_SDK_EXPORT, AI_SDK_LEGACY_EXPORT, OPENLLMETRY_EXPORT].map(
      (e): Seed => ({ encoding: "json", bytes: text(e) }),
    ),
    { encoding: "json", bytes: JsonTraceSerializer.serializeRequest(spans)! },
    { encoding: "protobuf", bytes: ProtobufTraceSerializer.serializeRequest(spans)! },
  ];
}

const JUNK: (() => unknown)[] = [
  () => null,
  () => true,
  () => -1,
  () => 1e300,
  () => "",
  () => "zz",
  () => "\u0000\ud800 lone surrogate",
  () => "99999999999999999999999",
  () => "x".repeat(70_000),
  () => ({}),
  () => [],
  () => ({ stringValue: 5 }),
  () => ({ intValue: "not a number" }),
  () => ({ kvlistValue: { values: [{ key: "__proto__", value: { stringValue: "p" } }] } }),
  () => ({ arrayValue: { values: "no" } }),
  () => JSON.stringify([{ role: "user", parts: "not a list" }]),
  () => JSON.stringify({ role: "tool", tool_call_id: 7 }),
  () => "0".repeat(32),
];

/** JSON text of an AnyValue nested `depth` levels deep, built as text (JSON.stringify recurses). */
const deepText = (depth: number) =>
  `${'{"arrayValue":{"values":['.repeat(depth)}{"stringValue":"bottom"}${"]}}".repeat(depth)}`;
/** A deep value goes into the tree as this marker and its depth, spliced in as text after stringify. */
const DEEP = "\u0001deep:";

class Fuzzer {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = random(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }
  /** Bytes from the seeded generator, so a run can be repeated exactly. */
  randomBytes(n: number): Buffer {
    return Buffer.from(Array.from({ length: n }, () => this.int(256)));
  }

  /** Every container in a JSON tree (without recursion), to replace a value in one of them. */
  private containers(root: unknown): (Record<string, unknown> | unknown[])[] {
    const out: (Record<string, unknown> | unknown[])[] = [];
    const stack = [root];
    while (stack.length) {
      const node = stack.pop();
      if (typeof node !== "object" || node === null) continue;
      out.push(node as Record<string, unknown>);
      for (const value of Object.values(node)) stack.push(value);
    }
    return out;
  }

  json(bytes: Uint8Array): Uint8Array {
    const tree = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    const rounds = 1 + this.int(4);
    for (let i = 0; i < rounds; i++) {
      const containers = this.containers(tree);
      const target = this.pick(containers);
      const keys = Object.keys(target);
      if (keys.length === 0) continue;
      const key = this.pick(keys);
      const value =
        this.int(10) === 0 ? `${DEEP}${this.pick([63, 65, 500, 5_000])}` : this.pick(JUNK)();
      if (this.int(8) === 0) delete (target as Record<string, unknown>)[key];
      else (target as Record<string, unknown>)[key] = value;
    }
    const text = JSON.stringify(tree).replace(/"\\u0001deep:(\d+)"/g, (_m, depth: string) =>
      deepText(Number(depth)),
    );
    return new TextEncoder().encode(text);
  }

  bytes(bytes: Uint8Array, other: Uint8Array): Uint8Array {
    const out = Buffer.from(bytes);
    switch (this.int(5)) {
      case 0: {
        for (let i = 1 + this.int(12); i > 0 && out.length > 0; i--)
          out[this.int(out.length)]! ^= 1 << this.int(8);
        return out;
      }
      case 1:
        return out.subarray(0, this.int(out.length + 1));
      case 2: {
        const at = this.int(out.length + 1);
        return Buffer.concat([
          out.subarray(0, at),
          this.randomBytes(1 + this.int(64)),
          out.subarray(at),
        ]);
      }
      case 3:
        return Buffer.concat([
          out.subarray(0, this.int(out.length + 1)),
          Buffer.from(other).subarray(this.int(other.length + 1)),
        ]);
      default:
        return this.randomBytes(this.int(2_000));
    }
  }
}

describe("2,000 fuzzed OTLP requests", () => {
  it("are never answered 5xx", async () => {
    const base = await seeds();
    const fuzz = new Fuzzer(SEED);
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    for (let n = 0; n < COUNT; n++) {
      const seed = fuzz.pick(base);
      const other = fuzz.pick(base);
      const kind = fuzz.int(10);
      // 0-3: JSON tree mutations; 4-7: byte mutations; 8-9: the seed as it is (stored, or found again).
      const body =
        kind < 4 && seed.encoding === "json"
          ? fuzz.json(seed.bytes)
          : kind < 8
            ? fuzz.bytes(seed.bytes, other.bytes)
            : seed.bytes;
      const zipped = fuzz.int(3) === 0;
      const sent = zipped
        ? fuzz.int(10) === 0
          ? fuzz.bytes(gzipSync(body), body)
          : gzipSync(body)
        : body;
      const encoding =
        fuzz.int(10) === 0 ? (seed.encoding === "json" ? "protobuf" : "json") : seed.encoding;
      const type = encoding === "json" ? "application/json" : "application/x-protobuf";
      const res = await POST(
        new Request("http://127.0.0.1/api/public/otel/v1/traces", {
          method: "POST",
          body: new Uint8Array(sent),
          headers: {
            "content-type": fuzz.int(50) === 0 ? "text/plain" : type,
            "x-api-key": key,
            ...(zipped ? { "content-encoding": "gzip" } : {}),
          },
        }),
        { params: Promise.resolve({}) },
      );
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500) failures.push(`#${n} ${res.status}: ${await res.text()}`);
      else await res.arrayBuffer();
    }
    console.info(
      `otel fuzz: ${COUNT} requests, by status ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(failures).toEqual([]);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(COUNT);
    // The fuzz reached both the mapping and the refusals.
    expect(statuses.get(200)).toBeGreaterThan(100);
    expect(statuses.get(400)).toBeGreaterThan(100);
  }, 600_000);
});
