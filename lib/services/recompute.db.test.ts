import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { weightSets } from "@/lib/db/weights";
import { PrincipleScore } from "@/lib/reward";
import { agentEventSchema } from "@/lib/schemas/events";
import { setupTestDatabase, unique } from "@/test/db";
import { ensureConstitution } from "./constitution";
import { ingestEvents } from "./ingest";
import { claimJob, drainRecomputeJobs, runBatch } from "./recompute";

let teardown: () => Promise<void>;
const actor = { id: null, label: "test-admin" };

beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
  // Scored turns to recompute: a short reply (joy < 1) and a clean one.
  for (let i = 0; i < 7; i++) {
    const session = unique("recompute");
    await ingestEvents(
      [
        { type: "UserPromptSubmit", prompt: `task ${i}` },
        { type: "Stop", response: i % 2 ? "OK" : "A complete and careful answer." },
      ].map((e) => agentEventSchema.parse({ ...e, id: unique("evt"), session_id: session })),
    );
  }
});
afterAll(() => teardown());

describe("recomputing totals when the weights change", () => {
  it("moves every stored total to the new weights and leaves the scores alone", async () => {
    const before = await db().turnScore.findMany();
    const { weightSet, jobId } = await weightSets.save(
      { joy_inducing: 5, ethical: 2, composable: 1.5 },
      "joy matters more",
      actor,
    );
    await drainRecomputeJobs();
    const job = await db().backgroundJob.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({ status: "done", done: job.total });
    const after = await db().turnScore.findMany();
    for (const row of after) {
      const old = before.find((b) => b.turnId === row.turnId);
      if (old) expect(row.joyInducing).toBe(old.joyInducing);
      const score = new PrincipleScore({
        tasteful: row.tasteful,
        curated: row.curated,
        ethical: row.ethical,
        joy_inducing: row.joyInducing,
        composable: row.composable,
        heterarchical: row.heterarchical,
        generative: row.generative,
      });
      expect(row.weightSetId).toBe(weightSet.id);
      expect(row.weightedTotal).toBe(score.weightedTotal(weightSet.weights));
      expect(row.normalizedTotal).toBe(score.normalizedTotal(weightSet.weights));
    }
    const audit = await db().auditLog.findFirst({
      where: { action: "weights.update", objectId: String(weightSet.id) },
    });
    expect(audit?.after).toMatchObject({ weights: { joy_inducing: 5 } });
  });

  it("resumes from its cursor after a stop, and one lease holder at a time", async () => {
    const { jobId } = await weightSets.save({ ethical: 3 }, "resume test", actor);
    const first = await claimJob("instance-a");
    expect(first?.id).toBe(jobId);
    // A second instance finds nothing to claim while the lease is held.
    expect(await claimJob("instance-b")).toBeNull();
    expect(await runBatch(first!, "instance-a", 2)).toBe(true);
    const midway = await db().backgroundJob.findUniqueOrThrow({ where: { id: jobId } });
    expect(midway.done).toBe(2);
    // Instance A "crashes": its lease lapses, B takes over and finishes from the cursor.
    await db().backgroundJob.update({
      where: { id: jobId },
      data: { leaseUntil: new Date(Date.now() - 1_000) },
    });
    await drainRecomputeJobs("instance-b", 2);
    const done = await db().backgroundJob.findUniqueOrThrow({ where: { id: jobId } });
    expect(done.status).toBe("done");
    expect(done.done).toBe(done.total);
    // A's late batch is refused: it no longer holds the lease.
    await expect(runBatch(first!, "instance-a", 2)).rejects.toThrow(/lease/);
  });
});
