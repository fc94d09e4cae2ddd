import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { db } from "@/lib/db/client";
import { jobs, LeaseLostError } from "@/lib/db/jobs";
import { weightSets } from "@/lib/db/weights";
import { agentEventSchema } from "@/lib/schemas/events";
import { ensureConstitution } from "@/lib/services/constitution";
import { ingestEvents } from "@/lib/services/ingest";
import { claimJob, runBatch } from "@/lib/services/recompute";
import { setupTestDatabase, testPgUrl, unique } from "@/test/db";

let teardown: () => Promise<void>;
const actor = { id: null, label: "test-admin" };

async function scoredSession(label: string): Promise<void> {
  const session = unique(label);
  await ingestEvents(
    [
      { type: "UserPromptSubmit", prompt: `task for ${label}` },
      { type: "Stop", response: "A complete and careful answer." },
    ].map((e) => agentEventSchema.parse({ ...e, id: unique("evt"), session_id: session })),
  );
}

/** Waits (bounded, generously) until `check` holds; polls, never sleeps as synchronisation. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
  for (let i = 0; i < 4; i++) await scoredSession("jobs");
});
afterAll(() => teardown());

describe("a recompute job's batches", () => {
  // Two connections and a row lock held by one of them: PostgreSQL only.
  it.skipIf(!inject("pgUrl"))(
    "commit nothing once a newer weight set superseded the job during the batch",
    async () => {
      const { weightSet, jobId } = await weightSets.save({ ethical: 4 }, "supersede test", actor);
      const job = await claimJob("instance-a");
      expect(job?.id).toBe(jobId);
      const other = new pg.Client({ connectionString: testPgUrl()! });
      await other.connect();
      try {
        // Another instance's save supersedes the job, and has not committed yet.
        await other.query("BEGIN");
        await other.query(
          "UPDATE background_job SET status = 'superseded', finished_at = now() WHERE id = $1",
          [jobId],
        );
        const batch = runBatch(job!, "instance-a", 2).then(
          (more) => ({ more }),
          (error: unknown) => ({ error }),
        );
        // The batch reaches the job's row and waits for the save to commit.
        await until(async () => {
          const { rows } = await other.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
          );
          return rows[0]!.n > 0;
        }, "the batch to wait on the job's row");
        await other.query("COMMIT");
        const outcome = await batch;
        expect(outcome).toEqual({ error: expect.any(LeaseLostError) });
      } finally {
        await other.end();
      }
      const row = await db().backgroundJob.findUniqueOrThrow({ where: { id: jobId } });
      expect(row).toMatchObject({ status: "superseded", done: 0, cursor: null });
      expect(await db().turnScore.count({ where: { weightSetId: weightSet.id } })).toBe(0);
    },
  );

  it("never count past 100% when turns arrive during the job, and end at exactly 100%", async () => {
    const previous = await weightSets.current();
    const { weightSet, jobId } = await weightSets.save({ joy_inducing: 3 }, "arrivals", actor);
    const job = await claimJob("instance-a");
    expect(job?.id).toBe(jobId);
    // Turns arrive while the job runs: scored under the new set (nothing to redo) and one
    // scored under the old set by an instance that had not heard of the save yet.
    for (let i = 0; i < 3; i++) await scoredSession("arrival");
    const late = await db().turnScore.findFirstOrThrow({
      where: { turn: { sessionId: { startsWith: "arrival" } } },
      orderBy: { scoredAt: "desc" },
    });
    await db().turnScore.update({
      where: { turnId: late.turnId },
      data: { weightSetId: previous.id },
    });
    let more = true;
    while (more) {
      more = await runBatch(job!, "instance-a", 2);
      const progress = await jobs.latestRecompute();
      expect(progress?.id).toBe(jobId);
      expect(progress!.done).toBeLessThanOrEqual(progress!.total);
    }
    const done = await jobs.latestRecompute();
    expect(done).toMatchObject({ status: "done", done: done!.total });
    // Every stored total is under the new set, the late turn included.
    expect(await db().turnScore.count({ where: { weightSetId: { not: weightSet.id } } })).toBe(0);
  });
});
