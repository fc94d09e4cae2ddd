import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { constitutionVersions } from "@/lib/db/constitution";
import { constitutionModels } from "@/lib/db/constitution-models";
import { db } from "@/lib/db/client";
import { setupTestDatabase } from "@/test/db";
import { currentStore, ensureConstitution, retrieve } from "./constitution";
import { drainFits, learnedFor, learnedStatus } from "./learned";

let teardown: () => Promise<void>;
const actor = { id: null, label: "test" };

beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
});
afterAll(() => teardown());

// A word no overlay, example or eval case of the shipped constitution uses: only labels can teach it.
const WORD = "quibblefrotz";
const LABELS = `cases:
${[
  "my {} is back",
  "the {} came back this week",
  "what does a {} mean",
  "is {} contagious",
  "{} again, what now",
  "how long does {} last",
]
  .map(
    (p) =>
      `  - {prompt: "${p.replace("{}", WORD)}", domains: [medical], expect: [MED.DISCLAIMER.1]}`,
  )
  .join("\n")}
`;

async function fitJobs(versionId: number) {
  return db().backgroundJob.findMany({ where: { kind: "fit", versionId } });
}

describe("learned weights per version", () => {
  it("are queued with every save, fitted by the worker, stored with both figures, and served at once", async () => {
    const base = (await constitutionVersions.current())!;
    const saved = await constitutionVersions.saveFile(
      {
        path: "eval/reviewed.yaml",
        text: LABELS,
        baseVersionId: base.id,
        message: "labels",
        action: "constitution.save",
      },
      actor,
    );
    expect((await fitJobs(saved.id)).map((j) => j.status)).toEqual(["queued"]);
    expect(await learnedStatus(saved.id)).toEqual({ state: "pending" });
    const prompt = `${WORD} again, third time this month`;
    const before = await retrieve(prompt);
    expect(before.domains.map((d) => d.domain)).not.toContain("medical");

    expect(await drainFits("test-owner")).toBeGreaterThanOrEqual(1);
    expect((await fitJobs(saved.id)).map((j) => j.status)).toEqual(["done"]);
    const stored = (await constitutionModels.get(saved.id))!;
    expect(await learnedStatus(saved.id)).toEqual({ state: "fitted", fit: stored });
    expect(stored.folds).toBe(5);
    expect(stored.model.cases).toBe(stored.keywords.cases);
    expect(stored.crossValidated.cases).toBe(stored.keywords.cases);
    expect(stored.model.domains.medical!.weights[WORD]).toBeGreaterThan(0);

    expect(await learnedFor(saved.id)).toEqual(stored.model);
    const { store } = await currentStore();
    expect(store.learned).toEqual(stored.model);
    const after = await retrieve(prompt);
    expect(after.domains.map((d) => d.domain)).toContain("medical");
  });

  it("a version with no fit and no job gets one queued when it is first served", async () => {
    const current = (await constitutionVersions.current())!;
    await db().constitutionModel.deleteMany({ where: { versionId: current.id } });
    await db().backgroundJob.deleteMany({ where: { kind: "fit", versionId: current.id } });
    expect(await learnedStatus(current.id)).toEqual({ state: "none" });
    await db().$executeRaw`SELECT pg_notify('charter_changes', '{"topic":"constitution_model"}')`;
    await constitutionModels.queueFitIfMissing(current.id);
    await constitutionModels.queueFitIfMissing(current.id);
    expect((await fitJobs(current.id)).map((j) => j.status)).toEqual(["queued"]);
    await drainFits("test-owner");
    expect(await constitutionModels.get(current.id)).not.toBeNull();
  });
});
