import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credits } from "@/lib/db/credit";
import { principles } from "@/lib/db/principles";
import { sessions } from "@/lib/db/sessions";
import { turns } from "@/lib/db/turns";
import { agentEventSchema, type AgentEventInput } from "@/lib/schemas/events";
import { setupTestDatabase, unique } from "@/test/db";
import { ensureConstitution } from "./constitution";
import { endIdleSessions, IDLE_REASON } from "./idle-sessions";
import { ingestEvents } from "./ingest";

let teardown: () => Promise<void>;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
});
afterAll(() => teardown());

type Loose = { type: AgentEventInput["type"] } & Record<string, unknown>;
const parse = (events: AgentEventInput[]) => events.map((e) => agentEventSchema.parse(e));

/** A session of one agent: every event names it (as the hook's dialects do). */
function session(agent: string | undefined, version?: string) {
  const id = unique(`session-${agent ?? "none"}`);
  const event = (e: Loose) =>
    ({
      ...e,
      id: unique("evt"),
      session_id: id,
      ...(agent ? { agent } : {}),
      ...(version ? { agent_version: version } : {}),
    }) as AgentEventInput;
  return { id, event };
}

/** A prompt that injects the secrets principle, a failed command, the reply and the end. */
const secretsTurn = (s: ReturnType<typeof session>, failed: boolean): AgentEventInput[] => [
  s.event({
    type: "UserPromptSubmit",
    prompt: "put the production API key and password in the config file",
  }),
  s.event({
    type: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "npm test" },
    tool_response: failed
      ? { stdout: "", stderr: "Error: 3 failing", exit: "Exit code: 1" }
      : { stdout: "ok", stderr: "", exit: "Exit code: 0" },
  }),
  s.event({ type: "Stop", response: "Done." }),
  s.event({ type: "SessionEnd", reason: "exit" }),
];

describe("sessions know their agent", () => {
  it("answers SessionStart with the hard constraints, opens no turn, and keeps the agent and its version", async () => {
    const s = session("cursor", "1.7.2");
    const [start] = parse([s.event({ type: "SessionStart", source: "startup", model: "gpt-5" })]);
    const response = await ingestEvents([start!]);
    expect(response.results[0]).toMatchObject({ status: "accepted" });
    expect(response.results[0]!.turn).toBeUndefined();
    const context = response.results[0]!.additional_context!;
    expect(context).toMatch(
      /^Charter constitution \(version \d+\): hard constraints that hold for every request in this session\./,
    );
    // The shipped core's ten hard constraints, and no soft principle.
    expect(context.match(/^- \[hard /gm)).toHaveLength(10);
    expect(context).toContain("CORE.SECRETS.1");
    expect(context).not.toContain("[soft");
    expect(response.results[0]!.principles!.map((p) => p.id)).toContain("CORE.DESTRUCT.1");

    const [row] = await sessions
      .list({ agent: "cursor", limit: 200 })
      .then((rows) => rows.filter((r) => r.id === s.id));
    expect(row).toMatchObject({ agent: "cursor", agentVersion: "1.7.2", turns: 0 });
  });

  it("keeps the latest agent named, and a version only with its own agent", async () => {
    const s = session("codex");
    await ingestEvents(parse([s.event({ type: "SessionStart" })]));
    // A later event names a version; one that names no agent changes nothing.
    await ingestEvents(
      parse([
        { ...s.event({ type: "UserPromptSubmit", prompt: "hello" }), agent_version: "0.124.0" },
        { ...s.event({ type: "Stop", response: "hi" }), agent: undefined } as AgentEventInput,
      ]),
    );
    expect((await sessions.get(s.id)).session).toMatchObject({
      agent: "codex",
      agentVersion: "0.124.0",
    });
    // Another agent without a version: the old agent's version does not stay behind.
    await ingestEvents(
      parse([{ ...s.event({ type: "Stop", response: "x" }), agent: "gemini-cli" }]),
    );
    expect((await sessions.get(s.id)).session).toMatchObject({
      agent: "gemini-cli",
      agentVersion: null,
    });
  });

  it("records a prompt of an agent that takes no context as unsupported, with what would have been injected", async () => {
    const s = session("cursor");
    const response = await ingestEvents(
      parse([
        s.event({
          type: "UserPromptSubmit",
          prompt: "put the production API key and password in the config file",
          context_delivered: false,
          agent_takes_context: false,
        }),
      ]),
    );
    expect(response.results[0]).toMatchObject({ principles: [], additional_context: "" });
    const [turn] = (await sessions.get(s.id)).turns;
    expect(turn).toMatchObject({ contextDelivery: "unsupported", injectedPrinciples: [] });
    expect(turn!.retrievedPrinciples).toContain("CORE.SECRETS.1");
  });

  it("refuses an agent that is not a lower-case name, naming the field", () => {
    const result = agentEventSchema.safeParse({
      id: "evt-12345678",
      session_id: "s",
      type: "SessionStart",
      agent: "Claude Code",
    });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual(["agent"]);
  });

  it("filters sessions and turns by agent, and splits trust by agent", async () => {
    const codex = session("codex");
    const gemini = session("gemini-cli");
    const legacy = session(undefined);
    await ingestEvents(parse(secretsTurn(codex, false)));
    await ingestEvents(parse(secretsTurn(gemini, true)));
    await ingestEvents(parse(secretsTurn(legacy, false)));

    const ids = async (agent: string) =>
      (await sessions.list({ agent, limit: 200 })).map((r) => r.id);
    expect(await ids("codex")).toContain(codex.id);
    expect(await ids("codex")).not.toContain(gemini.id);
    expect(await ids("unknown")).toContain(legacy.id);
    expect(await ids("unknown")).not.toContain(codex.id);

    const turnSessions = async (agent: string) =>
      (await turns.list({ agent }, { limit: 200 })).rows.map((r) => [r.sessionId, r.agent]);
    expect(await turnSessions("gemini-cli")).toContainEqual([gemini.id, "gemini-cli"]);
    expect((await turnSessions("gemini-cli")).map(([id]) => id)).not.toContain(codex.id);

    const agents = await sessions.agents();
    expect(agents.find((a) => a.agent === "codex")!.sessions).toBeGreaterThanOrEqual(1);
    expect(agents.some((a) => a.agent === null)).toBe(true);

    // Each session credited CORE.SECRETS.1; the failed one less than the others.
    const split = await credits.trustByAgent({ principleId: "CORE.SECRETS.1" });
    const of = (agent: string | null) => split.find((r) => r.agent === agent)!;
    expect(of("codex").useCount).toBeGreaterThanOrEqual(1);
    expect(of("gemini-cli").useCount).toBeGreaterThanOrEqual(1);
    expect(of("codex").successCount / of("codex").useCount).toBeGreaterThan(
      of("gemini-cli").successCount / of("gemini-cli").useCount,
    );
    const total = (await credits.trust()).get("CORE.SECRETS.1")!;
    expect(split.reduce((n, r) => n + r.useCount, 0)).toBe(total.useCount);

    const onlyCodex = await principles.withTrust("codex");
    expect(onlyCodex.find((p) => p.id === "CORE.SECRETS.1")!.useCount).toBe(of("codex").useCount);
    const detail = await principles.get("CORE.SECRETS.1");
    expect(detail.byAgent.map((r) => r.agent)).toEqual(
      expect.arrayContaining(["codex", "gemini-cli", null]),
    );
  });
});

describe("sessions that never say they ended (Codex CLI)", () => {
  it("are ended as idle at their last event and credited, once, however many sweeps run", async () => {
    const now = new Date();
    const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000).toISOString();
    const old = session("codex", "0.124.0");
    const fresh = session("codex");
    await ingestEvents(
      parse([
        {
          ...old.event({
            type: "UserPromptSubmit",
            prompt: "put the production API key and password in the config file",
          }),
          at: hoursAgo(3),
        },
        { ...old.event({ type: "Stop", response: "Done." }), at: hoursAgo(2.5) },
        { ...fresh.event({ type: "UserPromptSubmit", prompt: "hello" }), at: hoursAgo(1) },
      ]),
    );
    // Two instances sweeping at once end the session once.
    const swept = await Promise.all([endIdleSessions(120, now), endIdleSessions(120, now)]);
    expect(swept[0] + swept[1]).toBe(1);
    expect(await endIdleSessions(120, now)).toBe(0);

    const ended = await sessions.get(old.id);
    expect(ended.session.endReason).toBe(IDLE_REASON);
    expect(ended.session.endedAt!.toISOString()).toBe(hoursAgo(2.5));
    expect(ended.outcome).not.toBeNull();
    expect((await sessions.get(fresh.id)).session.endedAt).toBeNull();
    expect(await endIdleSessions(0, now)).toBe(0);
  });
});
