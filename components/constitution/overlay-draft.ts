import { LineCounter, parseDocument } from "yaml";
import type { Overlay, Principle } from "@/lib/constitution/schema";
import { serializeOverlay } from "@/lib/constitution/serialize";

/**
 * The overlay form's state: every field as the text the person typed, so a bad
 * value (a priority of "150", an empty title) survives into the YAML and the
 * engine reports it where it is, instead of the form silently dropping it.
 */
export type PrincipleDraft = {
  key: string;
  id: string;
  level: string;
  priority: string;
  title: string;
  rule: string;
  examplesAllow: string;
  examplesDeny: string;
  remediation: string;
  keywords: string;
};
export type OverrideDraft = { key: string; id: string; priority: string };
export type OverlaySettingsDraft = { sensitive: boolean; excluded: boolean; riskFloor: string; refusalRedirection: string; simulatorGuidance: string };
export type OverlayDraft = {
  description: string;
  keywords: string;
  overrides: OverrideDraft[];
  principles: PrincipleDraft[];
  settings: OverlaySettingsDraft;
};

let nextKey = 0;
/** A React list key for a new row. */
export const rowKey = (): string => `row-${++nextKey}`;

export const emptyPrinciple = (): PrincipleDraft => ({
  key: rowKey(),
  id: "",
  level: "soft",
  priority: "50",
  title: "",
  rule: "",
  examplesAllow: "",
  examplesDeny: "",
  remediation: "",
  keywords: "",
});

const OVERLAY_FIELDS = new Set(["domain", "description", "keywords", "additional_principles", "priority_overrides", "sensitive", "excluded", "refusal_redirection", "simulator_domain_guidance", "sensitive_risk_floor"]);
const PRINCIPLE_FIELDS = new Set(["id", "level", "priority", "title", "rule", "examples_allow", "examples_deny", "remediation", "domain", "keywords", "keywords_block", "keywords_style"]);

class Unrepresentable extends Error {}

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function scalar(value: unknown, field: string): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw new Unrepresentable(`${field} must be a single value`);
}

function list(value: unknown, field: string): string[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new Unrepresentable(`${field} must be a list`);
  return value.map((v, i) => scalar(v, `${field}[${i}]`));
}

function flag(value: unknown, field: string): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value !== "boolean") throw new Unrepresentable(`${field} must be true or false`);
  return value;
}

function principleDraft(value: unknown, at: string, domain: string): PrincipleDraft {
  if (!isMapping(value)) throw new Unrepresentable(`${at} must be a mapping (key: value pairs)`);
  for (const key of Object.keys(value)) if (!PRINCIPLE_FIELDS.has(key)) throw new Unrepresentable(`${at}.${key} is not a known field`);
  if (value.domain !== undefined && value.domain !== null && value.domain !== domain) throw new Unrepresentable(`${at}.domain must be ${domain} or left out`);
  const keywords = [...list(value.keywords, `${at}.keywords`), ...list(value.keywords_block, `${at}.keywords_block`), ...list(value.keywords_style, `${at}.keywords_style`)];
  return {
    key: rowKey(),
    id: scalar(value.id, `${at}.id`),
    level: scalar(value.level, `${at}.level`),
    priority: scalar(value.priority, `${at}.priority`),
    title: scalar(value.title, `${at}.title`),
    rule: scalar(value.rule, `${at}.rule`),
    examplesAllow: list(value.examples_allow, `${at}.examples_allow`).join("\n"),
    examplesDeny: list(value.examples_deny, `${at}.examples_deny`).join("\n"),
    remediation: scalar(value.remediation, `${at}.remediation`),
    keywords: keywords.join(", "),
  };
}

/**
 * Reads an overlay's YAML into the form. Values the engine would refuse (a priority
 * of 150) are carried over as text; only shapes the form cannot hold (YAML syntax
 * errors, unknown fields, a list where text belongs) are refused, with the reason.
 */
export function draftFromYaml(text: string, domain: string): { ok: true; draft: OverlayDraft } | { ok: false; reason: string } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const syntax = doc.errors[0];
  if (syntax) return { ok: false, reason: `line ${lines.linePos(syntax.pos[0]).line}: ${syntax.message.split("\n")[0] ?? "invalid YAML"}` };
  const value: unknown = doc.toJS();
  try {
    if (!isMapping(value)) throw new Unrepresentable("the file must be a mapping (key: value pairs)");
    for (const key of Object.keys(value)) if (!OVERLAY_FIELDS.has(key)) throw new Unrepresentable(`${key} is not a known field`);
    if (value.domain !== undefined && value.domain !== domain) throw new Unrepresentable(`domain must be ${domain}`);
    const overrides = value.priority_overrides ?? {};
    if (!isMapping(overrides)) throw new Unrepresentable("priority_overrides must be a mapping of principle id to priority");
    const principles = value.additional_principles ?? [];
    if (!Array.isArray(principles)) throw new Unrepresentable("additional_principles must be a list");
    return {
      ok: true,
      draft: {
        description: scalar(value.description, "description"),
        keywords: list(value.keywords, "keywords").join(", "),
        overrides: Object.entries(overrides).map(([id, priority]) => ({ key: rowKey(), id, priority: scalar(priority, `priority_overrides.${id}`) })),
        principles: principles.map((p, i) => principleDraft(p, `additional_principles[${i}]`, domain)),
        settings: {
          sensitive: flag(value.sensitive, "sensitive"),
          excluded: flag(value.excluded, "excluded"),
          riskFloor: scalar(value.sensitive_risk_floor, "sensitive_risk_floor"),
          refusalRedirection: scalar(value.refusal_redirection, "refusal_redirection"),
          simulatorGuidance: scalar(value.simulator_domain_guidance, "simulator_domain_guidance"),
        },
      },
    };
  } catch (error) {
    if (error instanceof Unrepresentable) return { ok: false, reason: error.message };
    throw error;
  }
}

const splitList = (text: string, separator: string | RegExp): string[] =>
  text
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);

// A typed number becomes a number; anything else stays text, so the engine names it
// ("must be a number") instead of the form losing it. Hence the cast: the value is
// only serialized and validated, never used as a priority.
function numberOrText(text: string): number {
  const trimmed = text.trim();
  const n = Number(trimmed);
  return (trimmed !== "" && Number.isFinite(n) ? n : trimmed) as number;
}

/** The overlay the form describes, as `serializeOverlay` takes it. */
export function draftToOverlay(domain: string, draft: OverlayDraft): Overlay {
  const principles: Principle[] = draft.principles.map((p) => ({
    id: p.id.trim(),
    level: p.level as Principle["level"],
    priority: numberOrText(p.priority),
    title: p.title,
    rule: p.rule,
    examples_allow: splitList(p.examplesAllow, "\n"),
    examples_deny: splitList(p.examplesDeny, "\n"),
    remediation: p.remediation,
    domain,
    keywords: splitList(p.keywords, ","),
  }));
  const floor = draft.settings.riskFloor.trim();
  return {
    domain,
    description: draft.description,
    keywords: splitList(draft.keywords, ","),
    priority_overrides: Object.fromEntries(draft.overrides.map((o) => [o.id.trim(), numberOrText(o.priority)])),
    additional_principles: principles,
    sensitive: draft.settings.sensitive,
    excluded: draft.settings.excluded,
    sensitive_risk_floor: floor === "" ? null : numberOrText(floor),
    refusal_redirection: draft.settings.refusalRedirection,
    simulator_domain_guidance: draft.settings.simulatorGuidance,
  };
}

/** The YAML the form describes. */
export function draftToYaml(domain: string, draft: OverlayDraft): string {
  return serializeOverlay(draftToOverlay(domain, draft));
}
