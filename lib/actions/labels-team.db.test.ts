import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ConstitutionStore,
  evalLexical,
  parseConstitution,
  type EvalMetrics,
} from "@/lib/constitution";
import { constitutionVersions } from "@/lib/db/constitution";
import { turns } from "@/lib/db/turns";
import type { AcceptLabelInput } from "@/lib/schemas/labels";
import { loadDemo } from "@/lib/services/demo";
import { fitVersion } from "@/lib/services/learned";
import { setupTestDatabaseWithConstitution } from "@/test/db";
import { acceptLabelAction } from "./accept-label";

// Issue 24's simulated team: reviewers label 50 turns of the demo data through the same
// server action the dashboard calls; the version their labels make is fitted as a save's
// job would fit it. The held-out set (which nothing is trained on) must not fall, and
// every labelled prompt must then be answered as it was labelled.
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("@/lib/auth/caller", async (actual) => ({
  ...(await actual<typeof import("@/lib/auth/caller")>()),
  resolveCaller: async () => ({
    kind: "user",
    userId: "team-reviewer",
    email: "team@example.test",
    name: "Team",
    role: "editor",
  }),
}));

type Verdict = Pick<AcceptLabelInput, "domains" | "verdict" | "principle">;
const none: Verdict = { domains: [], verdict: "domains_only" };
const coding: Verdict = { domains: ["coding"], verdict: "domains_only" };
/** What a reviewer says of each demo prompt (its stories' prompts and the person's follow-ups). */
const REVIEWER: Record<string, Verdict> = {
  "add input validation to the signup form and a test for it": {
    domains: ["coding"],
    verdict: "should_apply",
    principle: "CODE.TESTS.1",
  },
  "fix the failing pagination test in the orders module": {
    domains: ["coding"],
    verdict: "should_apply",
    principle: "CODE.TESTS.1",
  },
  "drop the old sessions table from the production database, we don't need it": {
    domains: ["coding"],
    verdict: "should_apply",
    principle: "CORE.DESTRUCT.1",
  },
  "what is a safe dose of ibuprofen for a headache": {
    domains: ["medical"],
    verdict: "should_apply",
    principle: "MED.DOSE.1",
  },
  "write a SQL query that returns every user's email for the marketing export": {
    domains: ["coding"],
    verdict: "should_apply",
    principle: "CORE.PRIV.1",
  },
  "refactor the payment client to retry on timeouts": coding,
  "can you check this contract clause about termination for me": {
    domains: ["legal"],
    verdict: "should_apply",
    principle: "LEGAL.INFO.1",
  },
  "add a github action that runs the tests on every pull request": coding,
  "that's wrong, the last page is still empty": coding,
  "not what I asked, the retries must be idempotent": coding,
  "perfect, thanks!": none,
  thanks: none,
  "great, that works": none,
  "good job": none,
  "thanks, that helps": none,
  awesome: none,
};

let teardown: () => Promise<void>;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabaseWithConstitution());
  await loadDemo({ id: null, label: "demo" });
}, 300_000);
afterAll(() => teardown());

const head = async () => (await constitutionVersions.current())!;

function heldOut(files: { path: string; text: string }[]) {
  const parsed = parseConstitution([
    ...files.filter((f) => !f.path.startsWith("eval/")),
    {
      path: "eval/holdout.yaml",
      text: readFileSync(path.join(process.cwd(), "test/fixtures/retrieval-holdout.yaml"), "utf8"),
    },
  ]);
  if (!parsed.ok) throw new Error("the held-out set does not parse");
  return parsed;
}

describe("a team labels 50 demo turns", () => {
  it("keeps the held-out figures and fixes every labelled prompt's misses", async () => {
    const before = await head();
    const rows = (await turns.list({}, { limit: 200 })).rows;
    const labelled = rows.filter((r) => REVIEWER[r.prompt]).slice(0, 50);
    expect(labelled).toHaveLength(50);
    for (const turn of labelled) {
      const result = await acceptLabelAction({
        ...REVIEWER[turn.prompt]!,
        prompt: turn.prompt,
        turnId: turn.id,
        baseVersionId: (await head()).id,
        confirmed: true,
      });
      expect(result.ok, JSON.stringify(result)).toBe(true);
    }
    const after = await head();
    const reviewed = after.evals.cases.filter((c) => c.file === "eval/reviewed.yaml");
    // One case per prompt: a second label of the same prompt changes its case.
    expect(reviewed.map((c) => c.prompt).sort()).toEqual(
      [...new Set(labelled.map((t) => t.prompt))].sort(),
    );

    const [fitBefore, fitAfter] = [await fitVersion(before.id), await fitVersion(after.id)];
    const served = (version: typeof before, model: typeof fitBefore.model) =>
      new ConstitutionStore(version.constitution, {}, { learned: model });
    const storeBefore = served(before, fitBefore.model);
    const storeAfter = served(after, fitAfter.model);

    const holdout = heldOut(after.files);
    const now = () => 0;
    const m0: EvalMetrics = (await evalLexical(storeBefore, holdout.evals, undefined, now)).metrics;
    const m1: EvalMetrics = (await evalLexical(storeAfter, holdout.evals, undefined, now)).metrics;
    expect(m1.domain_recall_at_1).toBeGreaterThanOrEqual(m0.domain_recall_at_1);
    expect(m1.domain_recall_at_3).toBeGreaterThanOrEqual(m0.domain_recall_at_3);
    expect(m1.principle_hit_rate).toBeGreaterThanOrEqual(m0.principle_hit_rate);
    expect(m1.false_injection_rate).toBeLessThanOrEqual(m0.false_injection_rate);
    expect(m1.trap_rate).toBeLessThanOrEqual(m0.trap_rate);

    // Each labelled prompt, as the team's agents would send it again, is answered as labelled.
    for (const c of reviewed) {
      const got = storeAfter.retrieveLexical(c.prompt);
      expect(got.domains.map((d) => d.domain).sort(), c.prompt).toEqual([...c.domains].sort());
      const ids = got.principles.map((p) => p.id);
      for (const id of c.expect) expect(ids, c.prompt).toContain(id);
    }
  }, 600_000);
});
