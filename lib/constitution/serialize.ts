import { stringify } from "yaml";
import type { ConstitutionFile } from "./parse";
import { CORE_FILE, OVERLAYS_DIR, type Constitution, type Overlay, type Principle } from "./schema";

const YAML_OPTIONS = {
  lineWidth: 100,
  defaultStringType: "PLAIN",
  defaultKeyType: "PLAIN",
} as const;

/** A principle as it is written to YAML: defaults and derived fields left out. */
export function principleToYaml(p: Principle, inOverlay: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: p.id,
    level: p.level,
    priority: p.priority,
    title: p.title,
    rule: p.rule,
  };
  if (p.examples_allow.length) out.examples_allow = p.examples_allow;
  if (p.examples_deny.length) out.examples_deny = p.examples_deny;
  if (p.remediation) out.remediation = p.remediation;
  if (p.domain && !inOverlay) out.domain = p.domain;
  if (p.keywords.length) out.keywords = p.keywords;
  return out;
}

/** An overlay as it is written to `overlays/<domain>.yaml`. */
export function overlayToYaml(o: Overlay): Record<string, unknown> {
  const out: Record<string, unknown> = { domain: o.domain };
  if (o.description) out.description = o.description;
  if (o.keywords.length) out.keywords = o.keywords;
  if (o.sensitive) out.sensitive = true;
  if (o.excluded) out.excluded = true;
  if (o.sensitive_risk_floor !== null) out.sensitive_risk_floor = o.sensitive_risk_floor;
  if (o.refusal_redirection) out.refusal_redirection = o.refusal_redirection;
  if (o.simulator_domain_guidance) out.simulator_domain_guidance = o.simulator_domain_guidance;
  if (Object.keys(o.priority_overrides).length) out.priority_overrides = o.priority_overrides;
  out.additional_principles = o.additional_principles.map((p) => principleToYaml(p, true));
  return out;
}

/** Writes an overlay as YAML text. */
export function serializeOverlay(o: Overlay): string {
  return stringify(overlayToYaml(o), YAML_OPTIONS);
}

/** Writes a constitution as files that parse back to the same constitution. */
export function serializeConstitution(c: Constitution): ConstitutionFile[] {
  const core: Record<string, unknown> = {};
  if (c.description) core.description = c.description;
  core.principles = c.core.map((p) => principleToYaml(p, false));
  return [
    { path: CORE_FILE, text: stringify(core, YAML_OPTIONS) },
    ...Object.values(c.overlays).map((o) => ({
      path: `${OVERLAYS_DIR}/${o.domain}.yaml`,
      text: serializeOverlay(o),
    })),
  ];
}
