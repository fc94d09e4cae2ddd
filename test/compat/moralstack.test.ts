import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "@/cli/errors";
import {
  ConflictingDefinitionError,
  ConstitutionStore,
  formatIssue,
  getConstitution,
  laxInteger,
  LexicalIndex,
  mergeKeywords,
  parseConstitution,
  resolveConstitution,
  specificity,
  type Constitution,
  type ConstitutionFile,
  type ParseResult,
} from "@/lib/constitution";
import { loadConstitution } from "@/lib/files/constitution";

/**
 * moralstack (fdidonato/moralstack, the constitution-store spec) against Charter: each behaviour of its
 * constitution loader and store that docs/compat-drafts/moralstack.md lists, restated
 * with inputs and expected outputs of our own. The fixture under
 * fixtures/moralstack-shape is a constitution written in moralstack's shape (core.yaml
 * and 21 overlays) holding what its real files hold.
 */

const FIXTURE = path.join(import.meta.dirname, "fixtures", "moralstack-shape");
const BIN = path.resolve(import.meta.dirname, "../../bin/charter.mjs");

async function fixture(): Promise<Constitution> {
  const loaded = await loadConstitution(FIXTURE);
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  return loaded.constitution;
}

const CORE = `principles:
  - {id: CORE.A.1, level: hard, priority: 90, title: A, rule: Do A.}
  - {id: SOFT.B.1, level: soft, priority: 60, title: B, rule: Do B.}
`;

/** A constitution of CORE plus the given files (which replace core.yaml when they name it). */
function parse(files: Record<string, string>): ParseResult {
  const all: ConstitutionFile[] = Object.entries({ "core.yaml": CORE, ...files }).map(
    ([p, text]) => ({ path: p, text }),
  );
  return parseConstitution(all);
}
const problems = (r: ParseResult) => (r.ok ? [] : r.issues.map(formatIssue));
const warnings = (r: ParseResult) => (r.warnings ?? []).map(formatIssue);

describe("the moralstack-shaped fixture", () => {
  it("validates: 8 core principles, 21 overlays, 28 distinct ids, four warnings", async () => {
    const loaded = await loadConstitution(FIXTURE);
    expect(loaded.ok ? [] : loaded.issues.map(formatIssue)).toEqual([]);
    if (!loaded.ok) return;
    expect(loaded.constitution.core).toHaveLength(8);
    expect(Object.keys(loaded.constitution.overlays)).toHaveLength(21);
    expect(loaded.warnings.map(formatIssue)).toEqual([
      'core.yaml:20:15: principles[1].priority: is the text "90": read as the number 90',
      'overlays/coding.yaml:4:3: priority_overrides.SOFT.NOTHERE.1: names no principle: "SOFT.NOTHERE.1" is not defined in core.yaml or any overlay, so the override is ignored',
      'overlays/legal.yaml:4:9: additional_principles[0].id: "REC.KEEP.1" is also defined at overlays/enterprise.yaml:4:9, with a different priority, title, rule, keywords: each overlay uses its own definition; two overlays that define it differently cannot be chosen together',
      'overlays/medical.yaml:4:17: priority_overrides.SOFT.TRUTH.1: is the text "85": read as the number 85',
    ]);
  });

  it("a core principle labelled `domain: core` is in force under no domain and under every overlay", async () => {
    const c = await fixture();
    for (const domains of [
      [],
      ["medical"],
      Object.keys(c.overlays).filter((d) => d !== "enterprise"),
    ]) {
      const equal = resolveConstitution(c, domains).principles.find((p) => p.id === "SOFT.EQUAL.1");
      expect(equal).toMatchObject({ domain: "core", overlay: null, priority: 72 });
    }
  });

  it("core alone, in precedence order: exact ties broken by moralstack's specificity, then id", async () => {
    expect(getConstitution(await fixture(), []).map((p) => `${p.id} ${p.priority}`)).toEqual([
      "CORE.HARM.1 100",
      "CORE.PRIVACY.1 90",
      "CORE.BALANCE.1 78",
      "SOFT.EQUAL.1 72",
      "SOFT.TRUTH.1 70",
      "SOFT.ZETA.1 60", // two examples of each kind and a longer rule: more specific than SOFT.ALPHA.1
      "SOFT.ALPHA.1 60",
      "SOFT.TONE.1 30",
    ]);
  });

  it("medical: string priorities and override values read as numbers; the identical MED.DISCLAIMER.1 of healthcare is one principle", async () => {
    const c = await fixture();
    const byId = (domains: string[]) => new Map(getConstitution(c, domains).map((p) => [p.id, p]));
    const medical = byId(["medical"]);
    expect(medical.get("CORE.PRIVACY.1")).toMatchObject({ priority: 90, base_priority: 90 });
    expect(medical.get("SOFT.TRUTH.1")).toMatchObject({
      priority: 85,
      base_priority: 70,
      overridden_by: "medical",
    });
    expect(medical.get("CORE.BALANCE.1")).toMatchObject({
      priority: 80,
      base_priority: 78,
      overridden_by: "medical",
    });
    const both = getConstitution(c, ["medical", "healthcare"]);
    expect(both.filter((p) => p.id === "MED.DISCLAIMER.1")).toHaveLength(1);
    expect(resolveConstitution(c, ["medical", "healthcare"]).warnings).toEqual([]);
  });

  it("REC.KEEP.1, defined differently by legal and enterprise: each overlay alone uses its own definition", async () => {
    const c = await fixture();
    const rec = (domain: string) => getConstitution(c, [domain]).find((p) => p.id === "REC.KEEP.1");
    expect(rec("legal")).toMatchObject({ priority: 70, title: "Keep Records", overlay: "legal" });
    expect(rec("enterprise")).toMatchObject({
      priority: 60,
      title: "Keep Company Records",
      overlay: "enterprise",
    });
  });

  it("both chosen: an error naming both places", async () => {
    const c = await fixture();
    const attempt = () => getConstitution(c, ["legal", "enterprise"]);
    expect(attempt).toThrow(ConflictingDefinitionError);
    expect(attempt).toThrow(
      '"REC.KEEP.1" is defined differently at overlays/enterprise.yaml:4:9 and overlays/legal.yaml:4:9: choose one of these domains, or make the definitions the same.',
    );
  });

  it.each([
    [
      "legal detected with more confidence",
      { legal: 0.9, enterprise: 0.4 },
      70,
      "used the legal definition, detected with higher confidence (0.9 over 0.4).",
    ],
    [
      "enterprise detected with more confidence",
      { legal: 0.3, enterprise: 0.8 },
      60,
      "used the enterprise definition, detected with higher confidence (0.8 over 0.3).",
    ],
    [
      "a tie: the first by name",
      { legal: 0.5, enterprise: 0.5 },
      60,
      "used the enterprise definition, first by name on equal confidence.",
    ],
  ])("both detected, %s: one definition, and a warning", async (_label, conf, priority, why) => {
    const c = await fixture();
    const resolved = resolveConstitution(c, Object.keys(conf), {
      confidence: new Map(Object.entries(conf)),
    });
    expect(resolved.principles.filter((p) => p.id === "REC.KEEP.1").map((p) => p.priority)).toEqual(
      [priority],
    );
    const [first, second] =
      conf.legal > conf.enterprise ? ["legal", "enterprise"] : ["enterprise", "legal"];
    expect(resolved.warnings).toEqual([
      `"REC.KEEP.1" is defined differently at overlays/${first}.yaml:4:9 and overlays/${second}.yaml:4:9: ${why}`,
    ]);
  });

  it("an agent's prompt that reaches both legal and enterprise is answered, the choice in the debug warnings", async () => {
    const store = new ConstitutionStore(await fixture());
    const got = await store.getRelevantPrinciples(
      "the company manager wants the employee contract records deleted before the lawsuit deadline",
    );
    expect(got.domains.map((d) => d.domain)).toEqual(["enterprise", "legal"]);
    expect(got.principles.map((p) => [p.id, p.priority, p.overlay])).toEqual([
      ["REC.KEEP.1", 60, "enterprise"],
    ]);
    expect(got.debug.warnings).toEqual([
      '"REC.KEEP.1" is defined differently at overlays/enterprise.yaml:4:9 and overlays/legal.yaml:4:9: used the enterprise definition, detected with higher confidence (0.9673 over 0.9583).',
    ]);
  });

  it("a retrieval that chooses both legal and enterprise is refused", async () => {
    const store = new ConstitutionStore(await fixture());
    await expect(
      store.getRelevantPrinciples("keep the records", { domain: ["legal", "enterprise"] }),
    ).rejects.toThrow(ConflictingDefinitionError);
  });

  it("an override of no principle (coding: SOFT.NOTHERE.1) changes nothing", async () => {
    const c = await fixture();
    const coding = getConstitution(c, ["coding"]);
    expect(coding.filter((p) => p.overlay === null)).toEqual(
      getConstitution(c, []).map((p) => ({ ...p })),
    );
    expect(coding.filter((p) => p.overlay === "coding").map((p) => p.id)).toEqual(["CODE.SAFE.1"]);
  });

  it("an overlay overriding its own principle (children: KID.SAFE.1 60 -> 85) applies the override", async () => {
    const kid = getConstitution(await fixture(), ["children"]).find((p) => p.id === "KID.SAFE.1");
    expect(kid).toMatchObject({ priority: 85, base_priority: 60, overridden_by: "children" });
  });

  it("an excluded overlay (violent_crime) is never applied nor detected", async () => {
    const c = await fixture();
    expect(resolveConstitution(c, ["violent_crime"])).toEqual({
      principles: getConstitution(c, []),
      warnings: ["The violent_crime overlay is excluded: it is never applied."],
    });
    const store = new ConstitutionStore(c);
    expect(
      (await store.detectRelevantDomains("plan an assault and a murder attack")).map(
        (d) => d.domain,
      ),
    ).not.toContain("violent_crime");
  });

  it("an unknown domain falls back to core, with a warning", async () => {
    const store = new ConstitutionStore(await fixture());
    const got = await store.getRelevantPrinciples("what does my horoscope say about my weapon", {
      domain: "astrology",
    });
    expect(got.domains).toEqual([]);
    expect(got.principles.map((p) => [p.id, p.overlay])).toEqual([["CORE.HARM.1", null]]);
    expect(got.debug.warnings).toEqual([
      'No overlay for the domain "astrology": only the core principles apply to it.',
    ]);
  });
});

describe("numbers as Pydantic's lax `int` reads them", () => {
  it.each([
    [90, 90],
    [90.0, 90],
    ["90", 90],
    [" 90 ", 90],
    ["+90", 90],
    ["9_0", 90],
    ["90.0", 90],
    ["90.", 90],
    ["-5", -5],
  ])("accepts %j as %i", (value, expected) => {
    expect(laxInteger(value)).toBe(expected);
  });

  it.each([
    [90.5],
    ["90.5"],
    ["high"],
    [""],
    ["1e2"],
    ["0x5a"],
    ["9__0"],
    ["_90"],
    [true],
    [false],
    [null],
    [[90]],
  ])("refuses %j", (value) => {
    expect(laxInteger(value)).toBeNull();
  });

  it("a priority of true is refused (Pydantic would read 1)", () => {
    const r = parse({
      "core.yaml":
        "principles:\n  - {id: CORE.A.1, level: hard, priority: true, title: A, rule: Do A.}\n",
    });
    expect(problems(r)).toEqual(["core.yaml:2:43: principles[0].priority: must be a number"]);
  });

  it('a priority of "90.5" is refused, as Pydantic refuses it', () => {
    const r = parse({
      "core.yaml":
        'principles:\n  - {id: CORE.A.1, level: hard, priority: "90.5", title: A, rule: Do A.}\n',
    });
    expect(problems(r)).toEqual(["core.yaml:2:43: principles[0].priority: must be a number"]);
  });

  it("a priority written 90.0 is 90, with no warning (YAML reads it as a number)", () => {
    const r = parse({
      "core.yaml":
        "principles:\n  - {id: CORE.A.1, level: hard, priority: 90.0, title: A, rule: Do A.}\n",
    });
    expect(r.ok && r.constitution.core[0]!.priority).toBe(90);
    expect(warnings(r)).toEqual([]);
  });

  it.each([
    ["95.5", "must be a whole number"], // moralstack's int() cuts it to 95
    ["150", "must be between 1 and 100"], // moralstack keeps 150: it checks no range on overrides
    ["0", "must be between 1 and 100"],
  ])("an override of %s is refused: %s", (value, reason) => {
    const r = parse({ "overlays/medical.yaml": `priority_overrides: {SOFT.B.1: ${value}}\n` });
    expect(problems(r)).toEqual([
      `overlays/medical.yaml:1:32: priority_overrides.SOFT.B.1: ${reason}`,
    ]);
  });

  it.each([
    [
      "`priority_overrides` as a list (moralstack reads it as none)",
      "priority_overrides: [SOFT.B.1]\n",
      "overlays/medical.yaml:1:21: priority_overrides: Invalid input: expected record, received array",
    ],
  ])("still refused: %s", (_label, text, expected) => {
    expect(problems(parse({ "overlays/medical.yaml": text }))).toEqual([expected]);
  });

  it.each([
    [
      '`sensitive: "yes"` is true, as Pydantic reads it',
      'sensitive: "yes"\n',
      "sensitive",
      true,
      'overlays/medical.yaml:1:12: sensitive: is "yes", not true or false: read as true',
    ],
    [
      "`excluded: 0` is false",
      "excluded: 0\n",
      "excluded",
      false,
      "overlays/medical.yaml:1:11: excluded: is 0, not true or false: read as false",
    ],
    [
      '`sensitive_risk_floor: "0.5"` is 0.5',
      'sensitive_risk_floor: "0.5"\n',
      "sensitive_risk_floor",
      0.5,
      'overlays/medical.yaml:1:23: sensitive_risk_floor: is the text "0.5": read as the number 0.5',
    ],
  ])("%s, with a warning", (_label, text, field, value, warning) => {
    const r = parse({ "overlays/medical.yaml": text });
    expect(r.ok && (r.constitution.overlays.medical as Record<string, unknown>)[field]).toBe(value);
    expect(warnings(r)).toEqual([warning]);
  });

  it('`sensitive: "maybe"` is still refused (Pydantic refuses it too)', () => {
    expect(problems(parse({ "overlays/medical.yaml": 'sensitive: "maybe"\n' }))).toEqual([
      "overlays/medical.yaml:1:12: sensitive: Invalid input: expected boolean, received string",
    ]);
  });

  it("an empty keyword is left out, as moralstack drops it, with a warning", () => {
    const r = parse({
      "overlays/medical.yaml":
        'keywords: [fever, ""]\nadditional_principles:\n  - {id: MED.A.1, level: soft, priority: 50, title: A, rule: Do A., keywords: ["", dose]}\n',
    });
    expect(r.ok && r.constitution.overlays.medical!.keywords).toEqual(["fever"]);
    expect(r.ok && r.constitution.overlays.medical!.additional_principles[0]!.keywords).toEqual([
      "dose",
    ]);
    expect(warnings(r)).toEqual([
      "overlays/medical.yaml:1:19: keywords[1]: is an empty keyword: it matches nothing and is left out",
      "overlays/medical.yaml:3:80: additional_principles[0].keywords[0]: is an empty keyword: it matches nothing and is left out",
    ]);
  });

  it("an empty `priority_overrides:` is no overrides, as moralstack reads it", () => {
    const r = parse({
      "overlays/medical.yaml": "priority_overrides:\nadditional_principles: []\n",
    });
    expect(r.ok && r.constitution.overlays.medical!.priority_overrides).toEqual({});
  });
});

describe("ids and domains", () => {
  it("a core principle may carry any domain: a label (a warning unless it is `core`), in force everywhere", () => {
    const r = parse({
      "core.yaml":
        "principles:\n  - {id: CORE.A.1, level: hard, priority: 90, title: A, rule: Do A., domain: medical}\n",
    });
    expect(warnings(r)).toEqual([
      'core.yaml:2:78: principles[0].domain: is "medical" on a core principle: it stays in force under every domain; the domain only labels it and counts as specificity',
    ]);
    expect(
      r.ok && getConstitution(r.constitution, []).map((p) => [p.id, p.domain, p.overlay]),
    ).toEqual([["CORE.A.1", "medical", null]]);
  });

  it.each([
    [
      "a core id redefined in an overlay",
      {
        "overlays/medical.yaml":
          "additional_principles:\n  - {id: SOFT.B.1, level: soft, priority: 70, title: B, rule: Do B.}\n",
      },
      'overlays/medical.yaml:2:10: additional_principles[0].id: "SOFT.B.1" is already defined at core.yaml:3:10',
    ],
    [
      "an id twice in core.yaml",
      {
        "core.yaml": `${CORE}  - {id: SOFT.B.1, level: soft, priority: 50, title: B2, rule: Do B2.}\n`,
      },
      'core.yaml:4:10: principles[2].id: "SOFT.B.1" is already defined at core.yaml:3:10',
    ],
    [
      "an overlay principle labelled with another domain",
      {
        "overlays/medical.yaml":
          "additional_principles:\n  - {id: M.1, level: soft, priority: 70, title: M, rule: Do M., domain: legal}\n",
      },
      'overlays/medical.yaml:2:73: additional_principles[0].domain: is "legal" but the principle belongs to the medical overlay',
    ],
  ])("refused: %s (moralstack would load it)", (_label, files, expected) => {
    expect(problems(parse(files))).toEqual([expected]);
  });

  it("accepted: an overlay file naming its own `domain`, a core `description`, a core without CORE.BALANCE.1 (moralstack refuses each)", () => {
    const r = parse({
      "core.yaml": `description: Always on.\n${CORE}`,
      "overlays/medical.yaml": "domain: medical\nadditional_principles: []\n",
    });
    expect(problems(r)).toEqual([]);
    expect(r.ok && r.constitution.core.some((p) => p.id === "CORE.BALANCE.1")).toBe(false);
  });

  it("accepted: an overlay written as .yml (moralstack lists only *.yaml)", () => {
    expect(problems(parse({ "overlays/legal.yml": "additional_principles: []\n" }))).toEqual([]);
  });

  it("an eval case naming an unknown domain stays an error (Charter's own eval format)", () => {
    const r = parse({
      "overlays/medical.yaml": "additional_principles: []\n",
      "eval/main.yaml": "cases: [{prompt: a headache, domains: [astrology]}]\n",
    });
    expect(problems(r)).toEqual([
      'eval/main.yaml:1:40: cases[0].domains[0]: "astrology" is not an overlay of this constitution',
    ]);
  });
});

describe("examples, keywords and specificity", () => {
  const FOUR = "[a one, a two, a three, a four]";
  const r = parse({
    "core.yaml": `principles:\n  - {id: CORE.A.1, level: hard, priority: 90, title: A, rule: Do A., remediation: Say why., examples_allow: ${FOUR}, examples_deny: ${FOUR}, keywords: [Bias, bias, fair]}\n`,
  });

  it("keeps every example and the remediation (moralstack keeps two examples of each kind and drops the remediation)", () => {
    const a = r.ok ? r.constitution.core[0]! : null;
    expect(a?.examples_allow).toHaveLength(4);
    expect(a?.examples_deny).toHaveLength(4);
    expect(a?.remediation).toBe("Say why.");
  });

  it("merges keywords case-insensitively (moralstack keeps Bias and bias as two)", () => {
    expect(r.ok && r.constitution.core[0]!.keywords).toEqual(["Bias", "fair"]);
    expect(mergeKeywords(["Verify"], ["verify", "check"])).toEqual(["Verify", "check"]);
  });

  it("matches keywords case-insensitively, as moralstack's tokenizer does", () => {
    const index = new LexicalIndex(r.ok ? r.constitution : { core: [], overlays: {} });
    expect(index.principleScores("is this BIAS or FAIR").get("CORE.A.1")).toEqual(
      index.principleScores("is this bias or fair").get("CORE.A.1"),
    );
    expect(
      index.principleScores("is this bias or fair").get("CORE.A.1")?.confidence,
    ).toBeGreaterThan(0);
  });

  it.each([
    [
      "a domain, two of each example, 2 keywords, a 250-character rule",
      {
        domain: "medical",
        examples_allow: ["a", "b"],
        examples_deny: ["c", "d"],
        keywords: ["x", "y"],
        rule: "r".repeat(250),
      },
      10_000 + 600 + 1_000 + 400 + 2_000,
    ],
    [
      "four of each example count as two",
      {
        domain: null,
        examples_allow: ["a", "b", "c", "d"],
        examples_deny: ["e", "f", "g", "h"],
        keywords: [],
        rule: "r".repeat(50),
      },
      600 + 1_000 + 500,
    ],
    [
      "a core principle labelled core counts its label",
      { domain: "core", examples_allow: [], examples_deny: [], keywords: [], rule: "" },
      10_000,
    ],
  ])("specificity (moralstack's score, in thousandths): %s", (_label, fields, expected) => {
    expect(specificity({ id: "X", level: "soft", priority: 50, ...fields })).toBe(expected);
  });
});

describe("the CLI on the fixture, from another directory", () => {
  const work = mkdtempSync(path.join(os.tmpdir(), "charter-compat-moralstack-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const dir = path.join(work, "moralstack-shape");
  cpSync(FIXTURE, dir, { recursive: true });

  function charter(args: string[]) {
    const env: NodeJS.ProcessEnv = { ...process.env, CHARTER_DATA_DIR: path.join(work, "data") };
    delete env.DATABASE_URL;
    delete env.OPENAI_API_KEY;
    delete env.OPENAI_BASE_URL;
    return spawnSync(process.execPath, [BIN, ...args], {
      cwd: work,
      env,
      encoding: "utf8",
      timeout: 120_000,
    });
  }

  it("validates (exit 0), imports, and retrieves with the fallback and the refusal", () => {
    const validated = charter(["constitution", "validate", "moralstack-shape"]);
    expect(validated.status, validated.stderr).toBe(EXIT.ok);
    expect(validated.stdout).toBe(
      `ok: 8 core principles, 21 overlays, 28 principles in all, 4 warnings (${dir})\n`,
    );
    expect(validated.stderr.split("\n").filter(Boolean)).toEqual([
      'warning: moralstack-shape/core.yaml:20:15: principles[1].priority: is the text "90": read as the number 90',
      'warning: moralstack-shape/overlays/coding.yaml:4:3: priority_overrides.SOFT.NOTHERE.1: names no principle: "SOFT.NOTHERE.1" is not defined in core.yaml or any overlay, so the override is ignored',
      'warning: moralstack-shape/overlays/legal.yaml:4:9: additional_principles[0].id: "REC.KEEP.1" is also defined at overlays/enterprise.yaml:4:9, with a different priority, title, rule, keywords: each overlay uses its own definition; two overlays that define it differently cannot be chosen together',
      'warning: moralstack-shape/overlays/medical.yaml:4:17: priority_overrides.SOFT.TRUTH.1: is the text "85": read as the number 85',
    ]);

    const imported = charter([
      "constitution",
      "import",
      "moralstack-shape",
      "-m",
      "moralstack's shape",
    ]);
    expect(imported.status, imported.stderr).toBe(EXIT.ok);
    expect(imported.stdout).toBe("saved as version 1\n");

    const retrieved = charter([
      "retrieve",
      "I have a headache, which symptoms need a diagnosis?",
      "--json",
    ]);
    expect(retrieved.status, retrieved.stderr).toBe(EXIT.ok);
    const body = JSON.parse(retrieved.stdout) as {
      domains: { domain: string }[];
      principles: { id: string; priority: number }[];
    };
    expect(body.domains.map((d) => d.domain)).toEqual(["medical", "healthcare"]);
    expect(body.principles.map((p) => [p.id, p.priority])).toEqual([["MED.DISCLAIMER.1", 80]]);

    const unknown = charter([
      "retrieve",
      "what does my horoscope say about my weapon",
      "--domain",
      "astrology",
    ]);
    expect(unknown.status, unknown.stderr).toBe(EXIT.ok);
    expect(unknown.stderr).toBe(
      'warning: No overlay for the domain "astrology": only the core principles apply to it.\n',
    );
    expect(unknown.stdout).toMatch(/^domains: none\n {2}hard 100 {2}\d\.\d\d {2}CORE\.HARM\.1 /);

    const both = charter(["retrieve", "keep the records", "--domain", "legal,enterprise"]);
    expect(both.status).toBe(EXIT.invalid);
    expect(both.stderr).toBe(
      'charter: "REC.KEEP.1" is defined differently at overlays/enterprise.yaml:4:9 and overlays/legal.yaml:4:9: choose one of these domains, or make the definitions the same.\n',
    );
  }, 180_000);
});
