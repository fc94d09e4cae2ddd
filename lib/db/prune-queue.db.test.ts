import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConflictError } from "@/lib/errors";
import { loadPlaybook } from "@/lib/playbook";
import { SEED_PRUNE_TABLE } from "@/test/fixtures/seeds/playbook";
import { setupTestDatabase, unique } from "@/test/db";
import { db } from "./client";
import { keyPoints } from "./key-points";
import { pruneQueue, WITHDRAWN_ACTION, WITHDRAWN_REASON } from "./prune-queue";

let teardown: () => Promise<void>;
const actor = { id: null, label: "test" };
const reflector = { id: null, label: "reflector" };
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
});
afterAll(() => teardown());

/** Rates a point through the reflector's own path (an ExtractionResult). */
function rate(name: string, counts: { helpful?: number; harmful?: number }, by = actor) {
  const ratings = (rating: string, n = 0) => Array.from({ length: n }, () => ({ name, rating }));
  return keyPoints.applyExtraction(
    {
      new_key_points: [],
      evaluations: [...ratings("helpful", counts.helpful), ...ratings("harmful", counts.harmful)],
    },
    null,
    by,
  );
}

async function point(counts: { helpful?: number; harmful?: number } = {}): Promise<string> {
  const name = await keyPoints.add(`prune queue ${unique("kp")}`, actor);
  if (counts.helpful || counts.harmful) await rate(name, counts);
  return name;
}

async function row(name: string) {
  const r = await db().keyPoint.findUniqueOrThrow({ where: { name } });
  return { status: r.status, helpful: r.helpful, harmful: r.harmful };
}

const injected = async () => (await keyPoints.forInjection(1_000_000)).names;
const actions = async (name: string) =>
  (
    await db().auditLog.findMany({
      where: { objectType: "key_point", objectId: name },
      orderBy: { id: "asc" },
    })
  ).map((e) => e.action);

describe("prune proposals follow the playbook spec's decision table", () => {
  it.each(SEED_PRUNE_TABLE)(
    "helpful %i, harmful %i: proposed is %s",
    async (helpful, harmful, pruned) => {
      const name = await point({ helpful, harmful });
      expect(await row(name)).toEqual({ status: pruned ? "proposed" : "active", helpful, harmful });
    },
  );
});

describe("a proposal whose counts change", () => {
  it("goes back to active when later helpful ratings outweigh harmful ones, with a record of why", async () => {
    const name = await point({ harmful: 3 });
    expect(await row(name)).toEqual({ status: "proposed", helpful: 0, harmful: 3 });
    // helpful 2, harmful 3: still meets the rule.
    expect((await rate(name, { helpful: 2 })).withdrawn).toEqual([]);
    expect(await row(name)).toEqual({ status: "proposed", helpful: 2, harmful: 3 });
    // helpful 3, harmful 3: the playbook spec's "equal, not majority harmful".
    const outcome = await rate(name, { helpful: 1 }, reflector);
    expect(outcome.withdrawn).toEqual([name]);
    expect(outcome.proposed).not.toContain(name);
    expect(await row(name)).toEqual({ status: "active", helpful: 3, harmful: 3 });
    expect(await injected()).toContain(name);

    const [record] = await db().auditLog.findMany({
      where: { objectId: name, action: WITHDRAWN_ACTION },
    });
    expect(record).toMatchObject({
      actorLabel: "reflector",
      before: { status: "proposed" },
      after: { status: "active", helpful: 3, harmful: 3, reason: WITHDRAWN_REASON },
    });
    expect((await pruneQueue.recentlyWithdrawn(200)).find((w) => w.name === name)).toMatchObject({
      name,
      helpful: 3,
      harmful: 3,
      by: "reflector",
    });

    // helpful 3, harmful 4: meets the rule again, and nobody kept it, so it is proposed again.
    expect((await rate(name, { harmful: 1 })).proposed).toEqual([name]);
    expect(await row(name)).toEqual({ status: "proposed", helpful: 3, harmful: 4 });
  });

  it("goes back to active when an import gives it counts that no longer meet the rule, and is proposed again by one that does", async () => {
    const name = unique("pat");
    const text = `imported ${unique("kp")}`;
    const file = (helpful: number, harmful: number) =>
      loadPlaybook(JSON.stringify({ key_points: [{ name, text, helpful, harmful }] })).playbook;
    expect((await keyPoints.importPlaybook(file(0, 3), actor)).proposed).toEqual([name]);
    const back = await keyPoints.importPlaybook(file(10, 4), actor);
    expect(back).toMatchObject({ updated: 1, withdrawn: [name] });
    expect(await row(name)).toEqual({ status: "active", helpful: 10, harmful: 4 });
    expect((await keyPoints.importPlaybook(file(1, 4), actor)).proposed).toEqual([name]);
    expect(await row(name)).toEqual({ status: "proposed", helpful: 1, harmful: 4 });
    expect(await actions(name)).toEqual([WITHDRAWN_ACTION]);
  });

  it("left stale before proposals were re-checked, is put right by its next rating", async () => {
    const name = await point({ helpful: 4, harmful: 3 });
    await db().$executeRaw`UPDATE key_point SET status = 'proposed' WHERE name = ${name}`;
    expect((await rate(name, { helpful: 1 })).withdrawn).toEqual([name]);
    expect(await row(name)).toEqual({ status: "active", helpful: 5, harmful: 3 });
  });
});

describe("approving", () => {
  it("prunes a point that still meets the rule, which then is never injected", async () => {
    const name = await point({ helpful: 1, harmful: 4 });
    await pruneQueue.approve([name], actor);
    expect(await row(name)).toEqual({ status: "pruned", helpful: 1, harmful: 4 });
    expect(await injected()).not.toContain(name);
  });

  it("refuses a proposal whose counts no longer meet the rule, naming it, and changes nothing", async () => {
    const fine = await point({ harmful: 3 });
    const stale = await point({ helpful: 4, harmful: 3 });
    // Written as the queue looked before proposals were re-checked.
    await db().$executeRaw`UPDATE key_point SET status = 'proposed' WHERE name = ${stale}`;
    const refusal = pruneQueue.approve([fine, stale], actor);
    await expect(refusal).rejects.toBeInstanceOf(ConflictError);
    await expect(refusal).rejects.toThrow(
      `${stale} no longer meets the prune rule (helpful 4, harmful 3, it needs harmful >= 3 and harmful > helpful): nothing was pruned; reload the queue.`,
    );
    expect(await row(fine)).toEqual({ status: "proposed", helpful: 0, harmful: 3 });
    expect(await row(stale)).toEqual({ status: "proposed", helpful: 4, harmful: 3 });
    expect(await actions(fine)).toEqual(["key_point.create"]);
  });

  it("refuses a point that is not proposed, and an unknown name", async () => {
    const active = await point({ harmful: 2 });
    await expect(pruneQueue.approve([active], actor)).rejects.toThrow(
      `${active} is not proposed for pruning (it is active); reload the queue.`,
    );
    await expect(pruneQueue.approve(["kpt_no_such_point"], actor)).rejects.toThrow(
      "No key point kpt_no_such_point.",
    );
    expect(await row(active)).toEqual({ status: "active", helpful: 0, harmful: 2 });
  });

  it("approved after a reflection made the point helpful: refused, the point stays in use", async () => {
    const name = await point({ harmful: 3 });
    await rate(name, { helpful: 4 });
    await expect(pruneQueue.approve([name], actor)).rejects.toThrow(
      `${name} is not proposed for pruning (it is active); reload the queue.`,
    );
    expect(await row(name)).toEqual({ status: "active", helpful: 4, harmful: 3 });
  });

  it("approved before a reflection made the point helpful: pruned, the late ratings ignored with a warning", async () => {
    const name = await point({ harmful: 3 });
    await pruneQueue.approve([name], actor);
    const late = await rate(name, { helpful: 4 });
    expect(late).toMatchObject({ evaluated: 0, withdrawn: [] });
    expect(late.warnings).toContain(`a rating of ${name}, which is pruned, was ignored`);
    expect(await row(name)).toEqual({ status: "pruned", helpful: 0, harmful: 3 });
  });

  it("concurrently with a reflection that makes the point helpful: one wins, and the point is consistent with the winner", async () => {
    const winners = { approve: 0, reflection: 0 };
    for (let round = 0; round < 8; round++) {
      const name = await point({ harmful: 3 });
      const [approval, reflection] = await Promise.allSettled([
        pruneQueue.approve([name], actor),
        rate(name, { helpful: 4 }),
      ]);
      if (reflection.status !== "fulfilled") throw reflection.reason;
      const events = await db().keyPointEvaluation.count({ where: { name, rating: "helpful" } });
      if (approval.status === "fulfilled") {
        winners.approve++;
        expect(await row(name)).toEqual({ status: "pruned", helpful: 0, harmful: 3 });
        expect(reflection.value.evaluated).toBe(0);
        expect(
          reflection.value.warnings.some(
            (w) =>
              w.startsWith(`a rating of ${name}, which is pruned`) ||
              w === `the ratings of ${name} were ignored: it was pruned meanwhile`,
          ),
        ).toBe(true);
        expect(events).toBe(0);
        expect(await injected()).not.toContain(name);
      } else {
        winners.reflection++;
        expect(approval.reason).toBeInstanceOf(ConflictError);
        expect(await row(name)).toEqual({ status: "active", helpful: 4, harmful: 3 });
        expect(reflection.value).toMatchObject({ evaluated: 4, withdrawn: [name] });
        expect(events).toBe(4);
        expect(await injected()).toContain(name);
      }
    }
    expect(winners.approve + winners.reflection).toBe(8);
  }, 60_000);
});

describe("undoing a prune", () => {
  it("puts a point whose counts still meet the rule back in the queue, not into use", async () => {
    const name = await point({ harmful: 3 });
    await pruneQueue.approve([name], actor);
    expect(await pruneQueue.undo(name, actor)).toBe("proposed");
    expect(await row(name)).toEqual({ status: "proposed", helpful: 0, harmful: 3 });
    expect(await injected()).not.toContain(name);
    // Still a proposal like any other: approvable again, or rejected to keep it.
    await pruneQueue.reject([name], actor);
    expect(await row(name)).toEqual({ status: "active", helpful: 0, harmful: 3 });
    expect(await actions(name)).toEqual([
      "key_point.create",
      "key_point.prune_approve",
      "key_point.prune_undo",
      "key_point.prune_reject",
    ]);
  });

  it("puts a point whose counts no longer meet the rule into use", async () => {
    const name = unique("pat");
    const text = `undone ${unique("kp")}`;
    const file = (helpful: number, harmful: number) =>
      loadPlaybook(JSON.stringify({ key_points: [{ name, text, helpful, harmful }] })).playbook;
    await keyPoints.importPlaybook(file(0, 3), actor);
    await pruneQueue.approve([name], actor);
    // An import can change a pruned point's counts; it stays pruned.
    await keyPoints.importPlaybook(file(5, 3), actor);
    expect(await row(name)).toEqual({ status: "pruned", helpful: 5, harmful: 3 });
    expect(await pruneQueue.undo(name, actor)).toBe("active");
    expect(await row(name)).toEqual({ status: "active", helpful: 5, harmful: 3 });
    expect(await injected()).toContain(name);
  });

  it("refuses a point that is not pruned and changes nothing", async () => {
    const name = await point({ harmful: 3 });
    await expect(pruneQueue.undo(name, actor)).rejects.toThrow(
      `${name} is not pruned (it is proposed).`,
    );
    expect(await row(name)).toEqual({ status: "proposed", helpful: 0, harmful: 3 });
  });
});

describe("rejecting a proposal", () => {
  it("keeps the point in use at its harmful count: helpful ratings never re-propose it, a harmful one past that count does", async () => {
    const name = await point({ harmful: 3 });
    await pruneQueue.reject([name], actor);
    expect(await row(name)).toEqual({ status: "active", helpful: 0, harmful: 3 });
    expect(await injected()).toContain(name);
    expect((await rate(name, { helpful: 1 })).proposed).not.toContain(name);
    expect(await row(name)).toEqual({ status: "active", helpful: 1, harmful: 3 });
    expect((await rate(name, { harmful: 1 })).proposed).toEqual([name]);
    expect(await row(name)).toEqual({ status: "proposed", helpful: 1, harmful: 4 });
    expect(await injected()).not.toContain(name);
  });
});
