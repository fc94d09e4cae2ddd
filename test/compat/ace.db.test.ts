/**
 * The playbook in the database against the ACE fork's naming and update rules (seed
 * 004): names from a sequence, never reused; duplicate texts and malformed reflector
 * items skipped with warnings, which the reflection records.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { keyPoints } from "@/lib/db/key-points";
import { createLlmClient } from "@/lib/llm/client";
import { extractionResultSchema, kptNumber, loadPlaybook } from "@/lib/playbook";
import { agentEventSchema } from "@/lib/schemas/events";
import { ensureConstitution } from "@/lib/services/constitution";
import { ingestEvents } from "@/lib/services/ingest";
import { reflectSession } from "@/lib/services/reflect";
import { setupTestDatabase, unique } from "@/test/db";
import { startScriptedLlmServer } from "@/test/llm-server";

let teardown: () => Promise<void>;
let server: Awaited<ReturnType<typeof startScriptedLlmServer>>;
let reply = "{}";
const actor = { id: null, label: "compat" };
const number = (name: string) => Number(kptNumber(name));
/** Every text made here carries RUN, so the points can leave use afterwards (the database is shared with other test files). */
const RUN = unique("ace-compat");
const u = () => `${unique("t")} ${RUN}`;

beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
  server = await startScriptedLlmServer(() => ({ content: reply }));
});
afterAll(async () => {
  // Out of the injected top key points, which other files' tests read.
  await db().keyPoint.updateMany({
    where: { text: { contains: RUN } },
    data: { status: "pruned" },
  });
  await server.close();
  await teardown();
});

describe("names in the database", () => {
  it("are never given again: not after a prune, not after an import of lower names", async () => {
    const doomed = await keyPoints.add(`doomed ${u()}`, actor);
    await keyPoints.applyExtraction(
      {
        new_key_points: [],
        evaluations: Array.from({ length: 3 }, () => ({ name: doomed, rating: "harmful" })),
      },
      null,
      actor,
    );
    await keyPoints.approve([doomed], actor);
    const { added } = await keyPoints.applyExtraction(
      { new_key_points: [`after the prune ${u()}`], evaluations: [] },
      null,
      actor,
    );
    expect(number(added[0]!)).toBeGreaterThan(number(doomed));
    const { playbook } = loadPlaybook(
      JSON.stringify({ key_points: [{ name: "kpt_001", text: `low ${u()}` }] }),
    );
    await keyPoints.importPlaybook(playbook, actor);
    expect(number(await keyPoints.add(`after a low import ${u()}`, actor))).toBeGreaterThan(
      number(added[0]!),
    );
  });

  it("keep names that are not kpt_NNN on import; kpt_N_x counts as N for the sequence", async () => {
    const tag = unique("pat");
    const { playbook } = loadPlaybook(
      JSON.stringify({
        key_points: [
          { name: tag, text: `pattern ${tag} ${RUN}`, section: "PATTERNS", helpful: 2, harmful: 0 },
          { name: "kpt_880000_old", text: `old ${tag} ${RUN}` },
        ],
      }),
    );
    const result = await keyPoints.importPlaybook(playbook, actor);
    expect(result.unkept).toEqual(["section"]);
    expect(await db().keyPoint.findUniqueOrThrow({ where: { name: tag } })).toMatchObject({
      text: `pattern ${tag} ${RUN}`,
      helpful: 2,
    });
    expect(number(await keyPoints.add(`after ${tag} ${RUN}`, actor))).toBeGreaterThan(880000);
  });

  it("stay unique when many reflections add points at once", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        keyPoints.applyExtraction(
          { new_key_points: [`parallel ${i} ${u()}`], evaluations: [] },
          null,
          actor,
        ),
      ),
    );
    const names = results.flatMap((r) => r.added);
    expect(new Set(names).size).toBe(20);
  });
});

describe("applying an ExtractionResult", () => {
  it("skips a text already stored (active or pruned), naming the point", async () => {
    const text = `Prefer pathlib ${u()}`;
    const first = await keyPoints.applyExtraction(
      { new_key_points: [text], evaluations: [] },
      null,
      actor,
    );
    const again = await keyPoints.applyExtraction(
      { new_key_points: [` ${text} `, text.toUpperCase()], evaluations: [] },
      null,
      actor,
    );
    expect(again.added).toHaveLength(1);
    expect(again.warnings).toEqual([
      `the new key point ${JSON.stringify(text)} has the same text as ${first.added[0]}: skipped`,
    ]);
    await keyPoints.applyExtraction(
      {
        new_key_points: [],
        evaluations: Array.from({ length: 3 }, () => ({
          name: first.added[0]!,
          rating: "harmful",
        })),
      },
      null,
      actor,
    );
    await keyPoints.approve([first.added[0]!], actor);
    const pruned = await keyPoints.applyExtraction(
      { new_key_points: [text], evaluations: [{ name: first.added[0]!, rating: "helpful" }] },
      null,
      actor,
    );
    expect(pruned.added).toEqual([]);
    expect(pruned.warnings).toEqual([
      `the new key point ${JSON.stringify(text)} has the same text as ${first.added[0]} (pruned: undo the prune to use it again): skipped`,
      `a rating of ${first.added[0]}, which is pruned, was ignored`,
    ]);
  });

  it("adds one text once when two reflections bring it at the same moment", async () => {
    const text = `Same lesson ${u()}`;
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        keyPoints.applyExtraction({ new_key_points: [text], evaluations: [] }, null, actor),
      ),
    );
    expect(results.flatMap((r) => r.added)).toHaveLength(1);
    expect(await db().keyPoint.count({ where: { text } })).toBe(1);
  });

  it("applies everything but the malformed items, and says which were skipped", async () => {
    const keep = await keyPoints.add(`rated ${u()}`, actor);
    const text = `New lesson ${u()}`;
    const extraction = extractionResultSchema.parse({
      new_key_points: [text, ""],
      evaluations: [
        { name: keep, rating: "helpful" },
        { name: keep },
        { rating: "harmful" },
        { name: "kpt_0000404", rating: "helpful" },
        { name: keep, rating: "great" },
      ],
    });
    const result = await keyPoints.applyExtraction(extraction, null, actor);
    expect(result.added).toHaveLength(1);
    expect(result.evaluated).toBe(1);
    expect((await db().keyPoint.findUniqueOrThrow({ where: { name: keep } })).helpful).toBe(1);
    expect(result.warnings).toEqual([
      "new_key_points[1] is empty: skipped",
      `evaluations[1] (${keep}) has no rating: skipped`,
      "evaluations[2] has no name: skipped",
      "a rating of kpt_0000404, which is not in the playbook, was ignored",
      `the rating "great" of ${keep} is not helpful, harmful or neutral: no change`,
    ]);
  });
});

describe("injection (the fork's playbook.txt template)", () => {
  it("is Charter's own one-line header before the playbook spec's lines, not the fork's template", async () => {
    await keyPoints.add(`Injected ${u()}`, actor);
    const id = unique("compat-inject");
    const response = await ingestEvents([
      agentEventSchema.parse({
        type: "UserPromptSubmit",
        prompt: "add a date test",
        id: unique("evt"),
        session_id: id,
      }),
    ]);
    expect(JSON.stringify(response)).toMatch(
      /Playbook: lessons from earlier sessions, with how often each helped or harmed \(weigh them by that\):\\n\[[^\]]+\] helpful=\d+ harmful=\d+ :: /,
    );
  });
});

describe("the reflector", () => {
  it("applies a reply with a malformed item, and the reflection records the warnings", async () => {
    const id = unique("compat-reflect");
    const event = (e: Record<string, unknown>) =>
      agentEventSchema.parse({ ...e, id: unique("evt"), session_id: id });
    await ingestEvents([
      event({ type: "UserPromptSubmit", prompt: "fix the date test" }),
      event({ type: "Stop", response: "Done." }),
    ]);
    const text = `Pin the time zone ${u()}`;
    reply = JSON.stringify({ new_key_points: [text, 3], evaluations: [{ rating: "helpful" }] });
    const outcome = await reflectSession(
      id,
      actor,
      createLlmClient({ baseURL: server.url, apiKey: "k" }),
    );
    const warnings = [
      "new_key_points[1] is a number, not a text: skipped",
      "evaluations[0] has no name: skipped",
    ];
    expect(outcome).toMatchObject({
      status: "applied",
      extraction: { new_key_points: [text], evaluations: [] },
      warnings,
    });
    const recorded = await db().reflection.findFirstOrThrow({ where: { sessionId: id } });
    expect(recorded.status).toBe("applied");
    expect((recorded.result as { warnings: string[] }).warnings).toEqual(warnings);
    expect(await db().keyPoint.count({ where: { text } })).toBe(1);
  });
});
