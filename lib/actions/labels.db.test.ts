import { parseDocument } from "yaml";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { REVIEWED_FILE, reviewedCases } from "@/lib/constitution/review-labels";
import { db } from "@/lib/db/client";
import { constitutionVersions } from "@/lib/db/constitution";
import { turns } from "@/lib/db/turns";
import type { AcceptLabelInput } from "@/lib/schemas/labels";
import { CONFIRM_MESSAGE } from "@/lib/schemas/labels";
import { agentEventSchema } from "@/lib/schemas/events";
import { ingestEvents } from "@/lib/services/ingest";
import { setupTestDatabaseWithConstitution, unique } from "@/test/db";
import { acceptLabelAction } from "./accept-label";
import { draftLabelAction } from "./draft-label";
import { removeLabelAction } from "./remove-label";

// Labels from review, through the server actions as the dashboard calls them: each label
// an eval case in eval/reviewed.yaml of a new constitution version, with its provenance
// and an audit row; refusals (a viewer, an unconfirmed prompt, a prompt another eval file
// holds, a stale version) store nothing.
let role = "editor";
const EMAIL = "reviewer@example.test";
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("@/lib/auth/caller", async (actual) => ({
  ...(await actual<typeof import("@/lib/auth/caller")>()),
  resolveCaller: async () => ({
    kind: "user",
    userId: "labels-reviewer",
    email: EMAIL,
    name: "Reviewer",
    role,
  }),
}));

let teardown: () => Promise<void>;
let turnId = "";
let sessionId = "";

beforeAll(async () => {
  ({ teardown } = await setupTestDatabaseWithConstitution());
  const session = unique("labels");
  await ingestEvents(
    [
      { type: "UserPromptSubmit", prompt: "bump react to 19 and fix what breaks" },
      { type: "Stop", response: "Bumped react and fixed two type errors." },
    ].map((e) => agentEventSchema.parse({ ...e, id: unique("evt"), session_id: session })),
  );
  const [turn] = (await turns.list({ sessionId: session })).rows;
  turnId = turn!.id;
  sessionId = session;
});
afterAll(() => teardown());
beforeEach(() => {
  role = "editor";
});

const head = async () => (await constitutionVersions.current())!;
const reviewedText = async (id?: number) => {
  const version = id ? await constitutionVersions.get(id) : await head();
  return version.files.find((f) => f.path === REVIEWED_FILE)?.text ?? null;
};
/** What a refusal must leave as it was: every version, the head, every audit row. */
const state = async () => ({
  versions: await db().constitutionVersion.count(),
  head: (await head()).id,
  audit: await db().auditLog.count(),
});
const lastAudit = () => db().auditLog.findFirstOrThrow({ orderBy: { id: "desc" } });

const labelOn = async (over: Partial<AcceptLabelInput> = {}): Promise<AcceptLabelInput> => ({
  prompt: unique("please make the parser tests pass"),
  domains: ["coding"],
  verdict: "should_apply",
  principle: "CODE.TESTS.1",
  turnId,
  baseVersionId: (await head()).id,
  confirmed: true,
  ...over,
});

describe("a label accepted by an editor", () => {
  it("is a case of eval/reviewed.yaml in a new version, with its provenance, audited with the turn and the actor", async () => {
    const before = await head();
    const input = await labelOn();
    const result = await acceptLabelAction(input);
    expect(result).toMatchObject({ ok: true, data: { change: "added" } });
    const after = await head();
    expect(after.id).toBe(before.id + 1);
    expect(result.ok && result.data.versionId).toBe(after.id);

    const [label] = reviewedCases(after).filter((c) => c.prompt === input.prompt);
    expect(label).toMatchObject({
      domains: ["coding"],
      expect: ["CODE.TESTS.1"],
      forbid: [],
      source: { kind: "review", turn_id: turnId, session_id: sessionId, by: EMAIL },
    });
    expect(Date.parse(label!.source!.at)).toBeGreaterThan(Date.now() - 60_000);
    // The earlier version is untouched: versions are immutable.
    expect(
      reviewedCases(await constitutionVersions.get(before.id)).map((c) => c.prompt),
    ).not.toContain(input.prompt);

    const audit = await lastAudit();
    expect(audit).toMatchObject({
      action: "constitution.label_added",
      actorId: "labels-reviewer",
      actorLabel: EMAIL,
      objectType: "constitution",
      objectId: String(after.id),
    });
    expect(audit.after).toMatchObject({
      version: after.id,
      file: REVIEWED_FILE,
      change: "added",
      turn_id: turnId,
      session_id: sessionId,
      expect: ["CODE.TESTS.1"],
    });
    // The prompt is in the constitution, not in the append-only audit log.
    expect(JSON.stringify(audit.after)).not.toContain(input.prompt);
    expect(after.message).toBe(
      `Label from review: CODE.TESTS.1 should have applied (turn ${turnId})`,
    );
  });

  it("on a prompt that already has a reviewed case changes that case, in one more version", async () => {
    const first = await labelOn();
    await acceptLabelAction(first);
    const text = (await reviewedText())!;
    const result = await acceptLabelAction({
      ...first,
      prompt: first.prompt.toUpperCase(),
      domains: [],
      verdict: "did_not_apply",
      principle: "CODE.TESTS.1",
      baseVersionId: (await head()).id,
    });
    expect(result).toMatchObject({ ok: true, data: { change: "updated" } });
    const cases = reviewedCases(await head()).filter(
      (c) => c.prompt.toLowerCase() === first.prompt.toLowerCase(),
    );
    expect(cases).toMatchObject([{ domains: [], expect: [], forbid: ["CODE.TESTS.1"] }]);
    // Every other case keeps its text: the file's other lines are as they were.
    const others = (t: string) =>
      (parseDocument(t).toJS() as { cases: { prompt: string }[] }).cases.filter(
        (c) => c.prompt.toLowerCase() !== first.prompt.toLowerCase(),
      );
    expect(others((await reviewedText())!)).toEqual(others(text));
    expect((await lastAudit()).after).toMatchObject({
      change: "updated",
      forbid: ["CODE.TESTS.1"],
    });
  });

  it("on the Retrieval page (no turn) names no turn or session, only who and when", async () => {
    const input = await labelOn({
      turnId: undefined,
      verdict: "domains_only",
      principle: undefined,
      domains: [],
    });
    expect(await acceptLabelAction(input)).toMatchObject({ ok: true });
    const [label] = reviewedCases(await head()).filter((c) => c.prompt === input.prompt);
    expect(label!.source).toEqual({ kind: "review", by: EMAIL, at: expect.any(String) });
    expect(label).toMatchObject({ domains: [], expect: [], forbid: [] });
  });

  it("is drafted for the impact preview without writing anything", async () => {
    const before = await state();
    const { baseVersionId: _, confirmed: __, ...label } = await labelOn();
    const draft = await draftLabelAction(label);
    expect(draft).toMatchObject({
      ok: true,
      data: { baseVersionId: before.head, path: REVIEWED_FILE, change: "added" },
    });
    expect(draft.ok && draft.data.text).toContain(label.prompt);
    expect(await state()).toEqual(before);
  });
});

describe("removing a label", () => {
  it("makes a new version without its case, audited with the turn, and the version before keeps it", async () => {
    const input = await labelOn();
    await acceptLabelAction(input);
    const withIt = await head();
    const result = await removeLabelAction({ prompt: input.prompt, baseVersionId: withIt.id });
    expect(result).toMatchObject({ ok: true, data: { versionId: withIt.id + 1 } });
    const without = await head();
    expect(reviewedCases(without).map((c) => c.prompt)).not.toContain(input.prompt);
    expect(reviewedCases(await constitutionVersions.get(withIt.id)).map((c) => c.prompt)).toContain(
      input.prompt,
    );
    expect(await lastAudit()).toMatchObject({
      action: "constitution.label_removed",
      actorLabel: EMAIL,
      objectId: String(without.id),
      after: expect.objectContaining({
        turn_id: turnId,
        session_id: sessionId,
        file: REVIEWED_FILE,
      }),
    });
    // Gone already: said so, nothing written.
    const before = await state();
    expect(
      await removeLabelAction({ prompt: input.prompt, baseVersionId: without.id }),
    ).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
    expect(await state()).toEqual(before);
  });
});

describe("refused, with nothing written", () => {
  it.each<[string, () => Promise<unknown>, Record<string, unknown>]>([
    [
      "a viewer's label",
      async () => {
        role = "viewer";
        return acceptLabelAction(await labelOn());
      },
      { code: "forbidden" },
    ],
    [
      "a viewer's removal",
      async () => {
        role = "viewer";
        return removeLabelAction({ prompt: "anything", baseVersionId: (await head()).id });
      },
      { code: "forbidden" },
    ],
    [
      "a viewer's draft",
      async () => {
        role = "viewer";
        const { baseVersionId: _, confirmed: __, ...label } = await labelOn();
        return draftLabelAction(label);
      },
      { code: "forbidden" },
    ],
    [
      "a prompt not confirmed as storable",
      async () => acceptLabelAction({ ...(await labelOn()), confirmed: false as true }),
      { code: "invalid_input", details: [{ path: "confirmed", message: CONFIRM_MESSAGE }] },
    ],
    [
      "a prompt with no confirmation at all",
      async () => {
        const { confirmed: _, ...input } = await labelOn();
        return acceptLabelAction(input as AcceptLabelInput);
      },
      { code: "invalid_input", details: [{ path: "confirmed" }] },
    ],
    [
      "a prompt that is a case in another eval file",
      async () =>
        acceptLabelAction(await labelOn({ prompt: "  Fix the failing test in auth.spec.ts " })),
      {
        code: "invalid_input",
        message: expect.stringMatching(
          /^This prompt is already an eval case in eval\/coding\.yaml \(line \d+\); change that case instead\. Nothing was saved\.$/,
        ),
        details: [{ path: "prompt" }],
      },
    ],
    [
      "a principle the constitution does not define",
      async () => acceptLabelAction(await labelOn({ principle: "NOPE.1" })),
      { code: "invalid_input", details: [{ path: "principle" }] },
    ],
    [
      "a label without its principle",
      async () => acceptLabelAction(await labelOn({ principle: undefined })),
      { code: "invalid_input", details: [{ path: "principle" }] },
    ],
    [
      "a turn that does not exist",
      async () => acceptLabelAction(await labelOn({ turnId: "no-such-turn" })),
      { code: "not_found" },
    ],
  ])("%s", async (_, call, error) => {
    const before = await state();
    const promptsBefore = reviewedCases(await head()).length;
    expect(await call()).toMatchObject({ ok: false, error });
    expect(await state()).toEqual(before);
    expect(reviewedCases(await head())).toHaveLength(promptsBefore);
  });

  it("a label on a version another save has replaced: a conflict naming the version in force", async () => {
    const stale = await labelOn();
    // Someone else's label lands first.
    await acceptLabelAction(await labelOn());
    const before = await state();
    const result = await acceptLabelAction(stale);
    expect(result).toMatchObject({
      ok: false,
      error: { code: "conflict", details: { currentVersionId: before.head } },
    });
    expect(await state()).toEqual(before);
    // Drafted again on the version in force, it is accepted.
    expect(await acceptLabelAction({ ...stale, baseVersionId: before.head })).toMatchObject({
      ok: true,
    });
  });

  it("ten labels on one version at once: one saved, the rest told of the conflict", async () => {
    const base = (await head()).id;
    const results = await Promise.all(
      Array.from({ length: 10 }, async () =>
        acceptLabelAction(await labelOn({ baseVersionId: base })),
      ),
    );
    const codes = results.map((r) => (r.ok ? "ok" : r.error.code)).sort();
    expect(codes.filter((c) => c === "ok")).toHaveLength(1);
    expect(codes.filter((c) => c !== "ok" && c !== "conflict" && c !== "unavailable")).toEqual([]);
    expect((await head()).id).toBe(base + 1);
  });
});
