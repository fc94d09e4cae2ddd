import { describe, expect, it } from "vitest";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { allPrinciples } from "./overlay";
import { parseConstitution } from "./parse";
import { evalLexical } from "./eval-store";
import { EVAL_DIR } from "./eval-schema";
import { CORE_FILE, formatIssue } from "./schema";
import { ConstitutionStore } from "./store";
import {
  LEVEL_BANDS,
  SEED_DOMAINS,
  SEED_HARD_CONSTRAINTS,
  SEED_MEDICAL_OVERLAY,
  SEED_SOFT_NORMS,
} from "@/test/fixtures/seeds/constitution";

const loaded = await loadConstitution(SHIPPED_CONSTITUTION_DIR);
if (!loaded.ok)
  throw new Error(
    `the shipped constitution does not load:\n${loaded.issues.map(formatIssue).join("\n")}`,
  );
const shipped = loaded.constitution;

describe("the shipped constitution", () => {
  it("parses with no issues", () => {
    const result = parseConstitution(loaded.files);
    expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([]);
    expect(loaded.files.map((f) => f.path)).toContain(CORE_FILE);
    expect(loaded.files.filter((f) => !f.path.startsWith(`${EVAL_DIR}/`))).toHaveLength(
      1 + SEED_DOMAINS.length,
    );
  });

  it.each(SEED_HARD_CONSTRAINTS)(
    "has the hard constraint $id ($title, $priority)",
    ({ id, title, priority }) => {
      expect(shipped.core.find((p) => p.id === id)).toMatchObject({
        id,
        level: "hard",
        title,
        priority,
        domain: null,
      });
    },
  );

  it.each(SEED_SOFT_NORMS)(
    "has the soft norm $id ($title, $priority)",
    ({ id, title, priority }) => {
      expect(shipped.core.find((p) => p.id === id)).toMatchObject({
        id,
        level: "soft",
        title,
        priority,
        domain: null,
      });
    },
  );

  it("has exactly the seed's domains", () => {
    expect(Object.keys(shipped.overlays).sort()).toEqual([...SEED_DOMAINS].sort());
  });

  it.each(SEED_DOMAINS)("has a complete %s overlay", (domain) => {
    const overlay = shipped.overlays[domain];
    expect(overlay).toBeDefined();
    expect(overlay!.domain).toBe(domain);
    expect(overlay!.excluded).toBe(false);
    expect(overlay!.description.length).toBeGreaterThan(0);
    expect(overlay!.keywords.length).toBeGreaterThan(0);
    expect(overlay!.additional_principles.length).toBeGreaterThanOrEqual(2);
    expect(overlay!.additional_principles.every((p) => p.domain === domain)).toBe(true);
  });

  it.each(allPrinciples(shipped).map((p) => [p.id, p.level, p.priority] as const))(
    "%s (%s) has priority %i inside its level's band",
    (_id, level, priority) => {
      expect(priority).toBeGreaterThanOrEqual(LEVEL_BANDS[level].min);
      expect(priority).toBeLessThanOrEqual(LEVEL_BANDS[level].max);
    },
  );

  describe("the medical overlay", () => {
    const medical = shipped.overlays[SEED_MEDICAL_OVERLAY.domain]!;

    it("has the seed's priority overrides", () => {
      expect(medical.priority_overrides).toMatchObject(SEED_MEDICAL_OVERLAY.priority_overrides);
    });

    it.each(SEED_MEDICAL_OVERLAY.additional_principles)("has $id as in the seed", (seeded) => {
      expect(medical.additional_principles.find((p) => p.id === seeded.id)).toMatchObject({
        ...seeded,
        domain: SEED_MEDICAL_OVERLAY.domain,
      });
    });
  });
});

describe("the shipped eval set (issue #10's goals)", () => {
  const { cases, thresholds } = loaded.evals;

  it("has the goals as its thresholds", () => {
    expect(thresholds).toEqual({
      domain_recall_at_1: 0.8,
      domain_recall_at_3: 0.95,
      principle_hit_rate: 0.95,
      false_injection_rate: 0.02,
      trap_rate: 0,
      mean_principles: 5,
    });
  });

  it("has at least 250 prompts, 80 of them where no overlay applies, and expects every shipped principle somewhere", () => {
    expect(cases.length).toBeGreaterThanOrEqual(250);
    expect(cases.filter((c) => c.domains.length === 0).length).toBeGreaterThanOrEqual(80);
    const expected = new Set(cases.flatMap((c) => c.expect));
    expect(
      allPrinciples(shipped)
        .map((p) => p.id)
        .filter((id) => !expected.has(id)),
    ).toEqual([]);
  });

  // The goals above are not all met yet (see README, Retrieval quality). These are the
  // values measured when the eval set was written: a change that does worse fails here.
  it("does no worse on the lexical path than measured", async () => {
    const { metrics } = await evalLexical(new ConstitutionStore(shipped), loaded.evals);
    expect(metrics.domain_recall_at_1).toBeGreaterThanOrEqual(0.8);
    expect(metrics.domain_recall_at_3).toBeGreaterThanOrEqual(0.898);
    expect(metrics.principle_hit_rate).toBeGreaterThanOrEqual(0.845);
    expect(metrics.false_injection_rate).toBeLessThanOrEqual(0.025);
    expect(metrics.trap_rate).toBeLessThanOrEqual(0.006);
    expect(metrics.mean_principles).toBeLessThanOrEqual(1);
  });
});
