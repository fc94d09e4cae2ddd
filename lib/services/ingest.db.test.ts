import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { weightSets } from "@/lib/db/weights";
import { ETHICAL_SCORES } from "@/lib/reward";
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

function session(): { id: string; events: (e: { type: AgentEventInput["type"] } & Record<string, unknown>) => AgentEventInput } {
  const id = unique("session");
  return { id, events: (e) => ({ ...e, id: unique("evt"), session_id: id }) as AgentEventInput };
}

const parse = (events: AgentEventInput[]) => events.map((e) => agentEventSchema.parse(e));

describe("ingesting agent events", () => {
  it("turns a hook session into a scored turn with tool calls", async () => {
    const s = session();
    const events = parse([
      s.events({ type: "UserPromptSubmit", prompt: "fix the failing login test in my repo", cwd: "/repo" }),
      s.events({ type: "PostToolUse", tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: { stdout: "1 failing", stderr: "", exit: "Exit code: 1" } }),
      s.events({ type: "PostToolUse", tool_name: "Edit", tool_input: { file_path: "login.ts" }, tool_response: { filePath: "login.ts", success: true } }),
      s.events({ type: "Stop", response: "Done!" }),
      s.events({ type: "SessionEnd", reason: "exit" }),
    ]);
    const response = await ingestEvents(events);
    expect(response).toMatchObject({ accepted: 5, duplicates: 0 });
    expect(response.results[0]!.turn).toBe(1);
    expect(response.results[0]!.additional_context).toMatch(/^Charter constitution \(version \d+\)/);

    const turn = await db().turn.findFirstOrThrow({ where: { sessionId: s.id }, include: { score: true } });
    expect(turn).toMatchObject({ number: 1, response: "Done!", toolsPassed: false, hasMutations: true });
    expect(turn.injectedPrinciples.length).toBeGreaterThan(0);
    expect(turn.score?.ethical).toBe(ETHICAL_SCORES.unacknowledged);
    expect(turn.score?.reasoning).toMatch(/ethical 0\.5/);
    const tools = await db().toolCall.findMany({ where: { sessionId: s.id }, orderBy: { at: "asc" } });
    expect(tools.map((t) => [t.name, t.succeeded])).toEqual([
      ["Bash", false],
      ["Edit", true],
    ]);
    expect(tools[0]!.activePrinciples).toEqual(turn.injectedPrinciples);
    expect((await db().agentSession.findUniqueOrThrow({ where: { id: s.id } })).endReason).toBe("exit");
  });

  it("ignores repeated event ids: a replayed batch changes nothing", async () => {
    const s = session();
    const events = parse([s.events({ type: "UserPromptSubmit", prompt: "hello" }), s.events({ type: "Stop", response: "Hello! How can I help today?" })]);
    await ingestEvents(events);
    const again = await ingestEvents(events);
    expect(again).toMatchObject({ accepted: 0, duplicates: 2 });
    expect(again.results[0]).toMatchObject({ status: "duplicate", turn: 1 });
    expect(await db().turn.count({ where: { sessionId: s.id } })).toBe(1);
  });

  it("numbers turns per session and scores a clean turn perfectly", async () => {
    const s = session();
    await ingestEvents(parse([s.events({ type: "UserPromptSubmit", prompt: "one" }), s.events({ type: "Stop", response: "A thoughtful first answer." })]));
    const second = await ingestEvents(parse([s.events({ type: "UserPromptSubmit", prompt: "two" }), s.events({ type: "Stop", response: "A thoughtful second answer." })]));
    expect(second.results.map((r) => r.turn)).toEqual([2, 2]);
    // Perfect: the whole of the weight set in force (other files on a shared PostgreSQL may have saved one since seed 000's 8.7).
    expect(second.results[1]!.score).toEqual({ weighted_total: (await weightSets.current()).maxTotal, normalized_total: 1 });
  });

  it("applies a batch all or nothing", async () => {
    const s = session();
    const good = s.events({ type: "UserPromptSubmit", prompt: "first" });
    // A SessionEnd for a session id too long for nothing... force a failure inside the transaction:
    const bad = { ...s.events({ type: "PostToolUse", tool_name: "Bash" }), tool_input: { big: "x" } };
    const events = parse([good, bad]);
    (events[1] as { at?: string }).at = "not-a-date";
    await expect(ingestEvents(events)).rejects.toThrow();
    expect(await db().agentEvent.count({ where: { sessionId: s.id } })).toBe(0);
    expect(await db().turn.count({ where: { sessionId: s.id } })).toBe(0);
  });
});
