import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { weightSets } from "@/lib/db/weights";
import { agentEventSchema, type AgentEventInput } from "@/lib/schemas/events";
import { setupTestDatabase, unique } from "@/test/db";
import { ensureConstitution } from "./constitution";
import { ingestEvents } from "./ingest";

let teardown: () => Promise<void>;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
});
afterAll(() => teardown());

function session(): {
  id: string;
  events: (e: { type: AgentEventInput["type"] } & Record<string, unknown>) => AgentEventInput;
} {
  const id = unique("session");
  return { id, events: (e) => ({ ...e, id: unique("evt"), session_id: id }) as AgentEventInput };
}

const parse = (events: AgentEventInput[]) => events.map((e) => agentEventSchema.parse(e));

describe("ingesting agent events", () => {
  it("turns a hook session into a scored turn with tool calls", async () => {
    const s = session();
    const events = parse([
      s.events({
        type: "UserPromptSubmit",
        prompt: "fix the failing login test in my repo",
        cwd: "/repo",
      }),
      s.events({
        type: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command: "npm test" },
        tool_response: { stdout: "1 failing", stderr: "", exit: "Exit code: 1" },
      }),
      s.events({
        type: "PostToolUse",
        tool_name: "Edit",
        tool_input: { file_path: "login.ts" },
        tool_response: { filePath: "login.ts", success: true },
      }),
      s.events({ type: "Stop", response: "Done!" }),
      s.events({ type: "SessionEnd", reason: "exit" }),
    ]);
    const response = await ingestEvents(events);
    expect(response).toMatchObject({ accepted: 5, duplicates: 0 });
    expect(response.results[0]!.turn).toBe(1);
    expect(response.results[0]!.additional_context).toMatch(
      /^Charter constitution \(version \d+\)/,
    );

    const turn = await db().turn.findFirstOrThrow({
      where: { sessionId: s.id },
      include: { score: true },
    });
    expect(turn).toMatchObject({
      number: 1,
      response: "Done!",
      toolsPassed: false,
      hasMutations: true,
    });
    expect(turn.injectedPrinciples.length).toBeGreaterThan(0);
    // docs/spec/turn-score.md § ETHICAL: mutations not acknowledged score 0.5.
    expect(turn.score?.ethical).toBe(0.5);
    expect(turn.score?.reasoning).toMatch(/ethical 0\.5/);
    const tools = await db().toolCall.findMany({
      where: { sessionId: s.id },
      orderBy: { at: "asc" },
    });
    expect(tools.map((t) => [t.name, t.succeeded])).toEqual([
      ["Bash", false],
      ["Edit", true],
    ]);
    expect(tools[0]!.activePrinciples).toEqual(turn.injectedPrinciples);
    expect((await db().agentSession.findUniqueOrThrow({ where: { id: s.id } })).endReason).toBe(
      "exit",
    );
  });

  it("ignores repeated event ids: a replayed batch changes nothing", async () => {
    const s = session();
    const events = parse([
      s.events({ type: "UserPromptSubmit", prompt: "hello" }),
      s.events({ type: "Stop", response: "Hello! How can I help today?" }),
    ]);
    await ingestEvents(events);
    const again = await ingestEvents(events);
    expect(again).toMatchObject({ accepted: 0, duplicates: 2 });
    expect(again.results[0]).toMatchObject({ status: "duplicate", turn: 1 });
    expect(await db().turn.count({ where: { sessionId: s.id } })).toBe(1);
  });

  it("numbers turns per session and scores a clean turn perfectly", async () => {
    const s = session();
    await ingestEvents(
      parse([
        s.events({ type: "UserPromptSubmit", prompt: "one" }),
        s.events({ type: "Stop", response: "A thoughtful first answer." }),
      ]),
    );
    const second = await ingestEvents(
      parse([
        s.events({ type: "UserPromptSubmit", prompt: "two" }),
        s.events({ type: "Stop", response: "A thoughtful second answer." }),
      ]),
    );
    expect(second.results.map((r) => r.turn)).toEqual([2, 2]);
    // Perfect: the whole of the weight set in force (other files on a shared PostgreSQL may have saved one since the turn-score spec's 8.7).
    expect(second.results[1]!.score).toEqual({
      weighted_total: (await weightSets.current()).maxTotal,
      normalized_total: 1,
    });
  });

  it("applies a batch all or nothing", async () => {
    const s = session();
    const good = s.events({ type: "UserPromptSubmit", prompt: "first" });
    // A SessionEnd for a session id too long for nothing... force a failure inside the transaction:
    const bad = {
      ...s.events({ type: "PostToolUse", tool_name: "Bash" }),
      tool_input: { big: "x" },
    };
    const events = parse([good, bad]);
    (events[1] as { at?: string }).at = "not-a-date";
    await expect(ingestEvents(events)).rejects.toThrow();
    expect(await db().agentEvent.count({ where: { sessionId: s.id } })).toBe(0);
    expect(await db().turn.count({ where: { sessionId: s.id } })).toBe(0);
  });
});

describe("what the agent was actually given", () => {
  const prompt = "fix the failing login test in my repo";
  const toolsAndEnd = (s: ReturnType<typeof session>) => [
    s.events({
      type: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_response: "12 passing\nExit code: 0",
    }),
    s.events({ type: "Stop", response: "Fixed it; the suite passes." }),
    s.events({ type: "SessionEnd", reason: "exit" }),
  ];

  it("records a spooled prompt with no injected principles or key points, keeps what would have been injected, and credits nothing", async () => {
    const s = session();
    const response = await ingestEvents(
      parse([
        s.events({ type: "UserPromptSubmit", prompt, context_delivered: false }),
        ...toolsAndEnd(s),
      ]),
    );
    expect(response.results[0]).toMatchObject({
      status: "accepted",
      turn: 1,
      principles: [],
      additional_context: "",
    });
    const turn = await db().turn.findFirstOrThrow({ where: { sessionId: s.id } });
    expect(turn.contextDelivery).toBe("spooled");
    expect(turn.injectedPrinciples).toEqual([]);
    expect(turn.injectedKeyPoints).toEqual([]);
    expect(turn.retrievedPrinciples).toContain("CODE.TESTS.1");
    expect(
      (await db().toolCall.findFirstOrThrow({ where: { sessionId: s.id } })).activePrinciples,
    ).toEqual([]);
    expect(
      (await db().sessionOutcome.findUniqueOrThrow({ where: { sessionId: s.id } })).credits,
    ).toEqual([]);
    expect(await db().principleUsage.count({ where: { traceId: s.id } })).toBe(0);
  });

  it("credits the same session's principles when the prompt's context was delivered", async () => {
    const s = session();
    await ingestEvents(parse([s.events({ type: "UserPromptSubmit", prompt }), ...toolsAndEnd(s)]));
    const turn = await db().turn.findFirstOrThrow({ where: { sessionId: s.id } });
    expect(turn.contextDelivery).toBe("delivered");
    expect(turn.injectedPrinciples).toEqual(turn.retrievedPrinciples);
    expect(turn.injectedPrinciples).toContain("CODE.TESTS.1");
    const usage = await db().principleUsage.findMany({ where: { traceId: s.id } });
    expect(usage.map((u) => u.principleId).sort()).toEqual([...turn.injectedPrinciples].sort());
  });

  it("takes injection back when a delivered prompt is replayed as undelivered (the hook gave up waiting), and credits again without it", async () => {
    const s = session();
    const first = s.events({ type: "UserPromptSubmit", prompt });
    await ingestEvents(parse([first, ...toolsAndEnd(s)]));
    expect(await db().principleUsage.count({ where: { traceId: s.id } })).toBeGreaterThan(0);
    const replay = await ingestEvents(
      parse([{ ...first, context_delivered: false } as AgentEventInput]),
    );
    expect(replay).toMatchObject({ accepted: 0, duplicates: 1 });
    const turn = await db().turn.findFirstOrThrow({ where: { sessionId: s.id } });
    expect(turn).toMatchObject({
      contextDelivery: "spooled",
      injectedPrinciples: [],
      injectedKeyPoints: [],
    });
    expect(turn.retrievedPrinciples).toContain("CODE.TESTS.1");
    expect(
      (await db().toolCall.findFirstOrThrow({ where: { sessionId: s.id } })).activePrinciples,
    ).toEqual([]);
    expect(await db().principleUsage.count({ where: { traceId: s.id } })).toBe(0);
    expect(
      (await db().sessionOutcome.findUniqueOrThrow({ where: { sessionId: s.id } })).credits,
    ).toEqual([]);
  });

  it("records an imported session's prompts as imported: scored, never credited", async () => {
    const s = session();
    const response = await ingestEvents(
      parse([s.events({ type: "UserPromptSubmit", prompt }), ...toolsAndEnd(s)]),
      { source: "import" },
    );
    expect(response.results[2]!.score).toBeDefined();
    const turn = await db().turn.findFirstOrThrow({
      where: { sessionId: s.id },
      include: { score: true },
    });
    expect(turn).toMatchObject({
      contextDelivery: "imported",
      injectedPrinciples: [],
      injectedKeyPoints: [],
    });
    expect(turn.score?.normalizedTotal).toBeGreaterThan(0);
    expect(await db().principleUsage.count({ where: { traceId: s.id } })).toBe(0);
  });

  it("marks a turn opened by a tool call before any prompt as having no context", async () => {
    const s = session();
    await ingestEvents(
      parse([
        s.events({
          type: "PostToolUse",
          tool_name: "Read",
          tool_input: { file_path: "a.ts" },
          tool_response: "1\tconst a = 1;",
        }),
      ]),
    );
    expect(await db().turn.findFirstOrThrow({ where: { sessionId: s.id } })).toMatchObject({
      number: 1,
      prompt: "",
      contextDelivery: "none",
      injectedPrinciples: [],
    });
  });
});

describe("set-based batches", () => {
  it("applies a batch of many sessions in order, as one-at-a-time ingestion would", async () => {
    const sessions = Array.from({ length: 20 }, () => session());
    const events = sessions.flatMap((s) => [
      s.events({ type: "UserPromptSubmit", prompt: "add a unit test for the parser" }),
      s.events({
        type: "PostToolUse",
        tool_name: "Write",
        tool_input: { file_path: "parser.test.ts", content: "x" },
        tool_response: "File created successfully at: parser.test.ts",
      }),
      s.events({ type: "Stop", response: "Added the test; it passes." }),
      s.events({ type: "UserPromptSubmit", prompt: "now run it" }),
      s.events({ type: "Stop", response: "Ran it: 1 passing." }),
    ]);
    const response = await ingestEvents(parse(events));
    expect(response).toMatchObject({ accepted: 100, duplicates: 0 });
    expect(response.results.slice(0, 5).map((r) => r.turn)).toEqual([1, 1, 1, 2, 2]);
    const turns = await db().turn.findMany({
      where: { sessionId: { in: sessions.map((s) => s.id) } },
      include: { score: true },
    });
    expect(turns).toHaveLength(40);
    const firsts = turns.filter((t) => t.number === 1);
    expect(
      firsts.every(
        (t) =>
          t.toolsPassed === true &&
          t.hasMutations === true &&
          t.response === "Added the test; it passes." &&
          t.score !== null,
      ),
    ).toBe(true);
    expect(
      turns
        .filter((t) => t.number === 2)
        .every(
          (t) =>
            t.toolsPassed === true &&
            t.hasMutations === false &&
            t.response === "Ran it: 1 passing.",
        ),
    ).toBe(true);
  });

  it("applies an event repeated inside one batch once", async () => {
    const s = session();
    const once = s.events({ type: "UserPromptSubmit", prompt: "hello there" });
    const response = await ingestEvents(
      parse([once, once, s.events({ type: "Stop", response: "Hi! What shall we work on?" })]),
    );
    expect(response).toMatchObject({ accepted: 2, duplicates: 1 });
    expect(response.results[1]).toMatchObject({ status: "duplicate", turn: 1 });
    expect(await db().turn.count({ where: { sessionId: s.id } })).toBe(1);
  });

  it("keeps a large tool input like a large tool output: short fields whole, long ones cut, saying how much", async () => {
    const s = session();
    const content = "x".repeat(300_000);
    await ingestEvents(
      parse([
        s.events({
          type: "PostToolUse",
          tool_name: "Write",
          tool_input: { file_path: "big.bin", content },
          tool_response: "ok",
        }),
      ]),
    );
    const call = await db().toolCall.findFirstOrThrow({ where: { sessionId: s.id } });
    const input = call.input as Record<string, unknown>;
    expect(input.file_path).toBe("big.bin");
    expect(input._truncated).toBe(300_036);
    expect(String(input.content)).toMatch(/^x{2000}… \[truncated 298000 characters\]$/);
  });

  it("never lets two concurrent batches of one session number a turn twice", async () => {
    const s = session();
    const batches = Array.from({ length: 8 }, (_, i) =>
      parse([
        s.events({ type: "UserPromptSubmit", prompt: `step ${i}` }),
        s.events({ type: "Stop", response: `did step ${i}` }),
      ]),
    );
    await Promise.all(batches.map((b) => ingestEvents(b)));
    const turns = await db().turn.findMany({
      where: { sessionId: s.id },
      orderBy: { number: "asc" },
    });
    expect(turns.map((t) => t.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(turns.every((t) => t.response === t.prompt.replace("step", "did step"))).toBe(true);
  });
});

describe("cutting long tool text", () => {
  it("never leaves half a surrogate pair where it cuts (PostgreSQL would refuse the batch)", async () => {
    const s = session();
    // An emoji (two UTF-16 units) straddling the 20,000-character cut of the output, and the 2,000-character cut of an input field.
    const output = `${"a".repeat(19_999)}😀 and more`;
    const content = `${"b".repeat(1_999)}😀${"c".repeat(30_000)}`;
    await ingestEvents(
      parse([
        s.events({
          type: "PostToolUse",
          tool_name: "Write",
          tool_input: { file_path: "e.txt", content },
          tool_response: output,
        }),
      ]),
    );
    const call = await db().toolCall.findFirstOrThrow({ where: { sessionId: s.id } });
    expect(call.output!.length).toBe(20_000 + "… [truncated 10 characters]".length);
    expect(call.output!.slice(19_998)).toBe("a\uFFFD… [truncated 10 characters]");
    const kept = String((call.input as Record<string, unknown>).content);
    expect(kept.slice(1_998)).toBe("b\uFFFD… [truncated 30001 characters]");
  });
});
