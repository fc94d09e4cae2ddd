import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { agentEventSchema, type AgentEvent, type AgentEventInput } from "@/lib/schemas/events";
import { drainAll } from "@/lib/shutdown";
import { setupTestDatabase, unique } from "@/test/db";
import { ensureConstitution } from "./constitution";
import { ingestEvents, prepareEvents } from "./ingest";
import { commitGroup, enqueue, groupStats, submitEvents } from "./ingest-queue";

let teardown: () => Promise<void>;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
});
afterAll(() => teardown());

const parse = (e: AgentEventInput) => agentEventSchema.parse(e);
const prompt = (session: string, text = "add a unit test for the parser", id = unique("evt")) =>
  parse({ type: "UserPromptSubmit", id, session_id: session, prompt: text } as AgentEventInput);
const stop = (session: string) =>
  parse({
    type: "Stop",
    id: unique("evt"),
    session_id: session,
    response: "Added it; it passes.",
  } as AgentEventInput);

/**
 * An event PostgreSQL refuses to store: a prompt holding half a surrogate pair, which
 * jsonb cannot hold (the route's schema would have made it U+FFFD; this one bypasses it).
 */
const refused = (session: string): AgentEvent =>
  ({
    type: "UserPromptSubmit",
    id: unique("evt-bad"),
    session_id: session,
    prompt: "half a pair \ud83d here",
  }) as AgentEvent;

const stored = async (sessions: string[]) => ({
  events: await db().agentEvent.count({ where: { sessionId: { in: sessions } } }),
  turns: await db().turn.count({ where: { sessionId: { in: sessions } } }),
  sessions: await db().agentSession.count({ where: { id: { in: sessions } } }),
});

describe("group commit", () => {
  it("applies many requests in one transaction and answers each with its own results, in its order", async () => {
    const sessions = Array.from({ length: 40 }, () => unique("group"));
    // Every fourth request opens a second turn in the session of the request before it.
    const requests = sessions.map((s, i) =>
      i % 4 === 3
        ? [prompt(sessions[i - 1]!, "now run it"), stop(sessions[i - 1]!)]
        : [prompt(s), stop(s)],
    );
    const before = groupStats();
    const outcomes = await commitGroup(
      await Promise.all(requests.map((events) => prepareEvents(events, "hook"))),
    );
    expect(groupStats()).toMatchObject({
      groups: before.groups + 1,
      requests: before.requests + 40,
      retried: before.retried,
    });
    outcomes.forEach((outcome, i) => {
      expect(outcome.status).toBe("fulfilled");
      const response = (outcome as PromiseFulfilledResult<Awaited<ReturnType<typeof ingestEvents>>>)
        .value;
      expect(response.results.map((r) => r.id)).toEqual(requests[i]!.map((e) => e.id));
      expect(response).toMatchObject({ accepted: 2, duplicates: 0 });
      expect(response.results.map((r) => r.turn)).toEqual(i % 4 === 3 ? [2, 2] : [1, 1]);
      if (i % 4 !== 3)
        expect(response.results[0]!.additional_context).toMatch(/^Charter constitution/);
      expect(response.results[1]!.score?.normalized_total).toBeGreaterThan(0);
    });
    expect(await stored(sessions)).toEqual({ events: 80, turns: 40, sessions: 30 });
  });

  it("fails only the request whose statement fails: the others commit, and its events are not recorded", async () => {
    const good = [unique("good"), unique("good")];
    const bad = unique("bad");
    const requests = [
      [prompt(good[0]!), stop(good[0]!)],
      [refused(bad), stop(bad)],
      [prompt(good[1]!)],
    ];
    const before = groupStats();
    const outcomes = await commitGroup(
      await Promise.all(requests.map((events) => prepareEvents(events, "hook"))),
    );
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(groupStats().retried).toBe(before.retried + 1);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(
      /surrogate|json|Unicode/i,
    );
    expect(await stored([bad])).toEqual({ events: 0, turns: 0, sessions: 0 });
    expect(await stored(good)).toEqual({ events: 3, turns: 2, sessions: 2 });
    // Nothing acknowledged that did not commit: every answer is what is stored.
    for (const outcome of outcomes.filter((o) => o.status === "fulfilled"))
      for (const result of outcome.value.results)
        expect(
          (await db().agentEvent.findUniqueOrThrow({ where: { id: result.id } })).result,
        ).toEqual(result);
  });

  it("answers concurrent requests sent through the queue, each with its own results, and fails the bad one alone", async () => {
    const sessions = Array.from({ length: 60 }, () => unique("queued"));
    const bad = unique("queued-bad");
    const events = sessions.map((s) => prompt(s));
    const settled = await Promise.allSettled([
      ...events.map((e) => submitEvents([e], "hook")),
      submitEvents([refused(bad)], "hook"),
    ]);
    expect(settled.at(-1)!.status).toBe("rejected");
    settled.slice(0, -1).forEach((s, i) => {
      expect(s.status).toBe("fulfilled");
      const value = (s as PromiseFulfilledResult<Awaited<ReturnType<typeof submitEvents>>>).value;
      expect(value.results).toHaveLength(1);
      expect(value.results[0]).toMatchObject({ id: events[i]!.id, status: "accepted", turn: 1 });
    });
    expect(await stored(sessions)).toEqual({ events: 60, turns: 60, sessions: 60 });
    expect(await stored([bad])).toEqual({ events: 0, turns: 0, sessions: 0 });
  });

  it("gives one event id one effect: sent by 50 concurrent requests with 50 session ids, through the queue or alone", async () => {
    for (const send of [
      (events: AgentEvent[]) => submitEvents(events, "hook"),
      (events: AgentEvent[]) => ingestEvents(events, { source: "hook" }),
    ]) {
      const id = unique("evt-shared");
      const sessions = Array.from({ length: 50 }, () => unique("shared"));
      const responses = await Promise.all(
        sessions.map((s) => send([prompt(s, "fix the failing login test", id)])),
      );
      expect(responses.map((r) => r.accepted).reduce((a, b) => a + b)).toBe(1);
      expect(responses.map((r) => r.duplicates).reduce((a, b) => a + b)).toBe(49);
      const turn = responses.flatMap((r) => r.results).find((r) => r.status === "accepted")!.turn;
      for (const r of responses.flatMap((x) => x.results)) expect(r).toMatchObject({ id, turn });
      expect(await stored(sessions)).toEqual({ events: 1, turns: 1, sessions: 1 });
    }
  });

  it("writes what is queued before the process exits (the ingest drain)", async () => {
    const sessions = Array.from({ length: 20 }, () => unique("drained"));
    const prepared = await Promise.all(sessions.map((s) => prepareEvents([prompt(s)], "hook")));
    let answered = 0;
    // Queued in one turn of the event loop, and the drain asked for before any group starts.
    for (const p of prepared) void enqueue(p).then(() => answered++);
    const results = await drainAll();
    expect(results.find((r) => r.name === "ingest")).toEqual({ name: "ingest" });
    expect(answered).toBe(20);
    expect(await stored(sessions)).toEqual({ events: 20, turns: 20, sessions: 20 });
  });
});

describe("a dry run (the server's warm-up)", () => {
  it("answers as usual and leaves no rows", async () => {
    const session = unique("dry");
    const events = [
      prompt(session),
      stop(session),
      parse({ type: "SessionEnd", id: unique("evt"), session_id: session } as AgentEventInput),
    ];
    const response = await ingestEvents(events, { source: "hook", dryRun: true });
    expect(response).toMatchObject({ accepted: 3, duplicates: 0 });
    expect(response.results[0]!.additional_context).toMatch(/^Charter constitution/);
    expect(response.results[2]!.outcome).toBeDefined();
    expect(await stored([session])).toEqual({ events: 0, turns: 0, sessions: 0 });
    expect(await db().sessionOutcome.count({ where: { sessionId: session } })).toBe(0);
    expect(await db().toolCall.count({ where: { sessionId: session } })).toBe(0);
    // The same events, sent for real afterwards, are new.
    expect(await ingestEvents(events, { source: "hook" })).toMatchObject({ accepted: 3 });
  });
});
