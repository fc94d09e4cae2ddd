import { describe, expect, it } from "vitest";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { comparePrecedence } from "./conflict";
import { getConstitution, resolveConstitution } from "./overlay";
import { formatIssue, type Constitution, type Overlay, type Principle } from "./schema";
import { SEED_DOMAINS, SEED_MEDICAL_OVERLAY } from "@/test/fixtures/seeds/constitution";

const loaded = await loadConstitution(SHIPPED_CONSTITUTION_DIR);
if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
const shipped = loaded.constitution;

const MEDICAL = SEED_MEDICAL_OVERLAY.domain;

function principle(
  id: string,
  level: Principle["level"],
  priority: number,
  domain: string | null = null,
): Principle {
  return {
    id,
    level,
    priority,
    title: id,
    rule: `Follow ${id}.`,
    examples_allow: [],
    examples_deny: [],
    remediation: "",
    domain,
    keywords: [],
  };
}

function overlay(domain: string, fields: Partial<Omit<Overlay, "domain">> = {}): Overlay {
  return {
    domain,
    description: `${domain} questions`,
    keywords: [domain],
    additional_principles: [],
    priority_overrides: {},
    sensitive: false,
    excluded: false,
    refusal_redirection: "",
    simulator_domain_guidance: "",
    sensitive_risk_floor: null,
    ...fields,
  };
}

/** Two overlays that both override SOFT.A.1 (alpha lower, beta higher); gamma is excluded. */
const small: Constitution = {
  core: [
    principle("CORE.H.1", "hard", 90),
    principle("SOFT.A.1", "soft", 50),
    principle("SOFT.B.1", "soft", 40),
  ],
  overlays: {
    alpha: overlay("alpha", {
      priority_overrides: { "SOFT.A.1": 60, "SOFT.B.1": 70 },
      additional_principles: [principle("ALPHA.X.1", "soft", 55, "alpha")],
    }),
    beta: overlay("beta", {
      priority_overrides: { "SOFT.A.1": 80 },
      additional_principles: [principle("BETA.X.1", "hard", 85, "beta")],
    }),
    gamma: overlay("gamma", {
      excluded: true,
      priority_overrides: { "SOFT.A.1": 99 },
      additional_principles: [principle("GAMMA.X.1", "hard", 100, "gamma")],
    }),
  },
};

const ids = (principles: readonly { id: string }[]) => principles.map((p) => p.id);

describe("getConstitution under the medical overlay (docs/spec/constitution-store.md)", () => {
  const resolved = getConstitution(shipped, MEDICAL);
  const byId = new Map(resolved.map((p) => [p.id, p]));

  it.each(Object.entries(SEED_MEDICAL_OVERLAY.priority_overrides))(
    "overrides %s to %i, keeping the base priority",
    (id, priority) => {
      const base = shipped.core.find((p) => p.id === id)!;
      expect(byId.get(id)).toMatchObject({
        priority,
        base_priority: base.priority,
        overridden_by: MEDICAL,
      });
      expect(base.priority).not.toBe(priority);
    },
  );

  it.each(SEED_MEDICAL_OVERLAY.additional_principles)("adds $id", ({ id, level, priority }) => {
    expect(byId.get(id)).toMatchObject({
      level,
      priority,
      base_priority: priority,
      domain: MEDICAL,
      overridden_by: null,
    });
  });

  it("keeps every core principle and leaves the ones it does not override alone", () => {
    for (const p of shipped.core) expect(byId.has(p.id)).toBe(true);
    const untouched = resolved.filter(
      (p) => p.domain === null && !(p.id in SEED_MEDICAL_OVERLAY.priority_overrides),
    );
    expect(untouched.every((p) => p.overridden_by === null && p.priority === p.base_priority)).toBe(
      true,
    );
  });

  it("does not change the constitution it reads", () => {
    const honest = shipped.core.find((p) => p.id === "SOFT.HONEST.1")!;
    expect(honest).not.toHaveProperty("base_priority");
    expect(honest.priority).not.toBe(SEED_MEDICAL_OVERLAY.priority_overrides["SOFT.HONEST.1"]);
  });
});

describe("getConstitution domain selection", () => {
  it.each([
    ["no argument", undefined],
    ["null", null],
    ["an empty list", []],
  ] as const)("with %s gives only the core principles, unmodified", (_label, domains) => {
    const resolved =
      domains === undefined ? getConstitution(shipped) : getConstitution(shipped, domains);
    expect(ids(resolved).sort()).toEqual(ids(shipped.core).sort());
    expect(
      resolved.every(
        (p) => p.domain === null && p.overridden_by === null && p.priority === p.base_priority,
      ),
    ).toBe(true);
  });

  it.each([
    [
      "alpha alone",
      ["alpha"],
      { "SOFT.A.1": [60, "alpha"], "SOFT.B.1": [70, "alpha"] },
      ["ALPHA.X.1"],
    ],
    ["beta alone", ["beta"], { "SOFT.A.1": [80, "beta"], "SOFT.B.1": [40, null] }, ["BETA.X.1"]],
    [
      "alpha then beta",
      ["alpha", "beta"],
      { "SOFT.A.1": [80, "beta"], "SOFT.B.1": [70, "alpha"] },
      ["ALPHA.X.1", "BETA.X.1"],
    ],
    [
      "beta then alpha",
      ["beta", "alpha"],
      { "SOFT.A.1": [80, "beta"], "SOFT.B.1": [70, "alpha"] },
      ["ALPHA.X.1", "BETA.X.1"],
    ],
    [
      "a domain given twice",
      ["alpha", "alpha"],
      { "SOFT.A.1": [60, "alpha"], "SOFT.B.1": [70, "alpha"] },
      ["ALPHA.X.1"],
    ],
    ["an excluded overlay", ["gamma"], { "SOFT.A.1": [50, null], "SOFT.B.1": [40, null] }, []],
    [
      "beta with an excluded overlay",
      ["beta", "gamma"],
      { "SOFT.A.1": [80, "beta"], "SOFT.B.1": [40, null] },
      ["BETA.X.1"],
    ],
  ] as const)("with %s: the highest active override wins", (_label, domains, expected, added) => {
    const resolved = getConstitution(small, domains);
    const byId = new Map(resolved.map((p) => [p.id, p]));
    for (const [id, [priority, by]] of Object.entries(expected)) {
      expect(byId.get(id)).toMatchObject({
        priority,
        overridden_by: by,
        base_priority: small.core.find((p) => p.id === id)!.priority,
      });
    }
    expect(ids(resolved.filter((p) => p.domain !== null)).sort()).toEqual([...added].sort());
  });

  it("applies several shipped overlays at once", () => {
    const resolved = getConstitution(shipped, [MEDICAL, "legal"]);
    const domains = new Set(resolved.map((p) => p.domain));
    expect(domains).toEqual(new Set([null, MEDICAL, "legal"]));
    expect(resolved).toHaveLength(
      shipped.core.length +
        shipped.overlays[MEDICAL]!.additional_principles.length +
        shipped.overlays.legal!.additional_principles.length,
    );
  });

  it("an excluded overlay contributes neither principles nor overrides", () => {
    expect(getConstitution(small, ["gamma"])).toEqual(getConstitution(small, []));
  });

  // Before issue 12 an unknown domain threw UnknownDomainError; moralstack falls back to core, and so does Charter now, with a warning.
  it.each([["astrology"], ["Medical"], [""]])(
    "falls back to core for %j, with a warning",
    (domain) => {
      const { principles, warnings } = resolveConstitution(shipped, [MEDICAL, domain]);
      expect(principles).toEqual(getConstitution(shipped, [MEDICAL]));
      expect(warnings).toEqual([
        `No overlay for the domain "${domain}": only the core principles apply to it.`,
      ]);
    },
  );

  it("says when a chosen overlay is excluded", () => {
    expect(resolveConstitution(small, ["gamma", "delta"]).warnings).toEqual([
      "The gamma overlay is excluded: it is never applied.",
      'No overlay for the domain "delta": only the core principles apply to it.',
    ]);
  });

  it.each([[[]], [[MEDICAL]], [[MEDICAL, "mental_health", "emergency"]], [[...SEED_DOMAINS]]])(
    "returns %j's principles in precedence order",
    (domains) => {
      const resolved = getConstitution(shipped, domains);
      for (let i = 1; i < resolved.length; i++)
        expect(comparePrecedence(resolved[i - 1]!, resolved[i]!)).toBeLessThan(0);
    },
  );

  it("orders by the effective priority, not the base one", () => {
    // SOFT.B.1 (40) rises to 70 under alpha and so passes ALPHA.X.1 (55) and SOFT.A.1 (60).
    expect(ids(getConstitution(small, ["alpha"]))).toEqual([
      "CORE.H.1",
      "SOFT.B.1",
      "SOFT.A.1",
      "ALPHA.X.1",
    ]);
  });
});
