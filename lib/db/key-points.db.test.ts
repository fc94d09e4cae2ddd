import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPlaybook } from "@/lib/playbook";
import { SEED_MIXED_INPUT } from "@/test/fixtures/seeds/playbook";
import { setupTestDatabase, unique } from "@/test/db";
import { db } from "./client";
import { keyPoints } from "./key-points";

let teardown: () => Promise<void>;
const actor = { id: null, label: "test" };
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
});
afterAll(() => teardown());

describe("the playbook in the database", () => {
  it("keeps counters exact under 200 evaluations of one key point, 20 at once", async () => {
    const name = await keyPoints.add(`concurrent ${unique("kp")}`, actor);
    // Twice the pool's connections at once, all on one row: enough to race, and each
    // waits for a connection far less than the pool's 5 s connect timeout on a busy machine.
    for (let wave = 0; wave < 10; wave++)
      await Promise.all(
        Array.from({ length: 20 }, (_, j) => {
          const i = wave * 20 + j;
          return keyPoints.applyExtraction(
            {
              new_key_points: [],
              evaluations: [{ name, rating: i % 4 === 0 ? "harmful" : "helpful" }],
            },
            `s-${i}`,
            actor,
          );
        }),
      );
    const row = await db().keyPoint.findUniqueOrThrow({ where: { name } });
    expect(row.helpful).toBe(150);
    expect(row.harmful).toBe(50);
    expect(await db().keyPointEvaluation.count({ where: { name } })).toBe(200);
  }, 120_000);

  it("proposes, approves, undoes and rejects by the playbook spec's rule, never renumbering", async () => {
    const a = await keyPoints.add(`a ${unique("kp")}`, actor);
    const b = await keyPoints.add(`b ${unique("kp")}`, actor);
    const harmful = (name: string, n: number) => ({
      new_key_points: [],
      evaluations: Array.from({ length: n }, () => ({ name, rating: "harmful" })),
    });
    expect((await keyPoints.applyExtraction(harmful(a, 2), null, actor)).proposed).toEqual([]);
    expect((await keyPoints.applyExtraction(harmful(a, 1), null, actor)).proposed).toEqual([a]);
    await keyPoints.approve([a], actor);
    expect((await db().keyPoint.findUniqueOrThrow({ where: { name: a } })).status).toBe("pruned");
    const c = await keyPoints.add(`c ${unique("kp")}`, actor);
    expect(Number(c.slice(4))).toBeGreaterThan(Number(b.slice(4)));
    // helpful 0, harmful 3 still meets the rule: undo puts it back in the queue, not into use.
    expect(await keyPoints.undo(a, actor)).toBe("proposed");
    const restored = await keyPoints.get(a);
    expect(restored).toMatchObject({ status: "proposed", helpful: 0, harmful: 3 });
    expect(restored.evaluations).toHaveLength(3);
    await keyPoints.reject([a], actor);
    expect((await db().keyPoint.findUniqueOrThrow({ where: { name: a } })).status).toBe("active");
    // Kept by a person at harmful 3: proposed again only when harmful grows.
    expect(
      (await keyPoints.applyExtraction({ new_key_points: [], evaluations: [] }, null, actor))
        .proposed,
    ).not.toContain(a);
    expect((await keyPoints.applyExtraction(harmful(a, 1), null, actor)).proposed).toEqual([a]);
    await keyPoints.reject([a], actor);
    expect((await db().keyPoint.findUniqueOrThrow({ where: { name: a } })).status).toBe("active");
    await expect(keyPoints.approve([a], actor)).rejects.toThrow(/not proposed/);
    const audit = await db().auditLog.findMany({
      where: { objectId: a, objectType: "key_point" },
      orderBy: { id: "asc" },
    });
    expect(audit.map((e) => e.action)).toEqual([
      "key_point.create",
      "key_point.prune_approve",
      "key_point.prune_undo",
      "key_point.prune_reject",
      "key_point.prune_reject",
    ]);
  });

  it("imports a legacy playbook by the playbook spec's rules and moves the name sequence past it", async () => {
    const { playbook } = loadPlaybook(
      JSON.stringify({
        ...SEED_MIXED_INPUT,
        key_points: SEED_MIXED_INPUT.key_points.map((k) =>
          typeof k === "string" ? k : { ...k, name: k.name.replace("kpt_", "kpt_9") },
        ),
      }),
    );
    await keyPoints.importPlaybook(playbook, actor);
    const imported = await db().keyPoint.findUniqueOrThrow({ where: { name: "kpt_9003" } });
    expect(imported).toMatchObject({
      text: "Avoid globals",
      harmful: 3,
      helpful: 0,
      status: "proposed",
    });
    const next = await keyPoints.add("after import", actor);
    expect(Number(next.slice(4))).toBeGreaterThan(9004);
    const exported = await keyPoints.exportPlaybook();
    expect(exported.key_points.find((k) => k.name === "kpt_9004")).toEqual({
      name: "kpt_9004",
      text: "Write tests",
      helpful: 8,
      harmful: 2,
    });
  });
});

describe("importing into a playbook that has entries", () => {
  it("never overwrites a different key point that holds the same name", async () => {
    const { playbook: first } = loadPlaybook(
      JSON.stringify({
        key_points: [{ name: "kpt_7001", text: "Keep me", helpful: 4, harmful: 0 }],
      }),
    );
    await keyPoints.importPlaybook(first, actor);
    const { playbook: second } = loadPlaybook(
      JSON.stringify({
        key_points: [
          { name: "kpt_7001", text: "A different lesson", helpful: 0, harmful: 0 },
          { name: "kpt_7001", text: "x" },
        ],
      }),
    );
    const result = await keyPoints.importPlaybook(
      { ...second, key_points: second.key_points.slice(0, 1) },
      actor,
    );
    expect(result.renamed).toHaveLength(1);
    expect((await db().keyPoint.findUniqueOrThrow({ where: { name: "kpt_7001" } })).text).toBe(
      "Keep me",
    );
    expect(
      (await db().keyPoint.findUniqueOrThrow({ where: { name: result.renamed[0]!.to } })).text,
    ).toBe("A different lesson");
  });
});
