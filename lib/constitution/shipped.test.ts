import { describe, expect, it } from "vitest";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { allPrinciples } from "./overlay";
import { parseConstitution } from "./parse";
import { CORE_FILE, formatIssue } from "./schema";
import { LEVEL_BANDS, SEED_DOMAINS, SEED_HARD_CONSTRAINTS, SEED_MEDICAL_OVERLAY, SEED_SOFT_NORMS } from "./seed";

const loaded = await loadConstitution(SHIPPED_CONSTITUTION_DIR);
if (!loaded.ok) throw new Error(`the shipped constitution does not load:\n${loaded.issues.map(formatIssue).join("\n")}`);
const shipped = loaded.constitution;

describe("the shipped constitution", () => {
  it("parses with no issues", () => {
    const result = parseConstitution(loaded.files);
    expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([]);
    expect(loaded.files.map((f) => f.path)).toContain(CORE_FILE);
    expect(loaded.files).toHaveLength(1 + SEED_DOMAINS.length);
  });

  it.each(SEED_HARD_CONSTRAINTS)("has the hard constraint $id ($title, $priority)", ({ id, title, priority }) => {
    expect(shipped.core.find((p) => p.id === id)).toMatchObject({ id, level: "hard", title, priority, domain: null });
  });

  it.each(SEED_SOFT_NORMS)("has the soft norm $id ($title, $priority)", ({ id, title, priority }) => {
    expect(shipped.core.find((p) => p.id === id)).toMatchObject({ id, level: "soft", title, priority, domain: null });
  });

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

  it.each(allPrinciples(shipped).map((p) => [p.id, p.level, p.priority] as const))("%s (%s) has priority %i inside its level's band", (_id, level, priority) => {
    expect(priority).toBeGreaterThanOrEqual(LEVEL_BANDS[level].min);
    expect(priority).toBeLessThanOrEqual(LEVEL_BANDS[level].max);
  });

  describe("the medical overlay", () => {
    const medical = shipped.overlays[SEED_MEDICAL_OVERLAY.domain]!;

    it("has the seed's priority overrides", () => {
      expect(medical.priority_overrides).toMatchObject(SEED_MEDICAL_OVERLAY.priority_overrides);
    });

    it.each(SEED_MEDICAL_OVERLAY.additional_principles)("has $id as in the seed", (seeded) => {
      expect(medical.additional_principles.find((p) => p.id === seeded.id)).toMatchObject({ ...seeded, domain: SEED_MEDICAL_OVERLAY.domain });
    });
  });
});
