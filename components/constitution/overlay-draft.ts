import type { Overlay } from "@/lib/constitution/schema";
import { overlayToYaml, serializeOverlay } from "@/lib/constitution/serialize";
import { patchedText, principleListEdits, same, valueEdits, type EditGrain } from "./draft-edits";
import {
  draftToPrinciple,
  flag,
  isMapping,
  list,
  numberOrText,
  onlyFields,
  principleDraft,
  readMapping,
  rowKey,
  scalar,
  splitList,
  Unrepresentable,
  type DraftRead,
  type PrincipleDraft,
} from "./principle-draft";
import type { YamlEdit } from "./yaml-patch";

/** The overlay form's state: every field as typed text (see `PrincipleDraft`). */
export type OverrideDraft = { key: string; id: string; priority: string };
export type OverlaySettingsDraft = {
  sensitive: boolean;
  excluded: boolean;
  riskFloor: string;
  refusalRedirection: string;
  simulatorGuidance: string;
};
export type OverlayDraft = {
  description: string;
  keywords: string;
  overrides: OverrideDraft[];
  principles: PrincipleDraft[];
  settings: OverlaySettingsDraft;
};

const OVERLAY_FIELDS = new Set([
  "domain",
  "description",
  "keywords",
  "additional_principles",
  "priority_overrides",
  "sensitive",
  "excluded",
  "refusal_redirection",
  "simulator_domain_guidance",
  "sensitive_risk_floor",
]);

/**
 * Reads an overlay's YAML into the form. Values the engine would refuse (a priority
 * of 150) are carried over as text; only shapes the form cannot hold (YAML syntax
 * errors, unknown fields, a list where text belongs) are refused, with the reason.
 */
export function draftFromYaml(text: string, domain: string): DraftRead<OverlayDraft> {
  return readMapping(text, (value) => {
    onlyFields(value, OVERLAY_FIELDS);
    if (value.domain !== undefined && value.domain !== domain)
      throw new Unrepresentable(`domain must be ${domain}`);
    const overrides = value.priority_overrides ?? {};
    if (!isMapping(overrides))
      throw new Unrepresentable("priority_overrides must be a mapping of principle id to priority");
    const principles = value.additional_principles ?? [];
    if (!Array.isArray(principles))
      throw new Unrepresentable("additional_principles must be a list");
    return {
      description: scalar(value.description, "description"),
      keywords: list(value.keywords, "keywords").join(", "),
      overrides: Object.entries(overrides).map(([id, priority]) => ({
        key: rowKey(),
        id,
        priority: scalar(priority, `priority_overrides.${id}`),
      })),
      principles: principles.map((p, i) =>
        principleDraft(p, `additional_principles[${i}]`, domain),
      ),
      settings: {
        sensitive: flag(value.sensitive, "sensitive"),
        excluded: flag(value.excluded, "excluded"),
        riskFloor: scalar(value.sensitive_risk_floor, "sensitive_risk_floor"),
        refusalRedirection: scalar(value.refusal_redirection, "refusal_redirection"),
        simulatorGuidance: scalar(value.simulator_domain_guidance, "simulator_domain_guidance"),
      },
    };
  });
}

/** The overlay the form describes, as `serializeOverlay` takes it. */
export function draftToOverlay(domain: string, draft: OverlayDraft): Overlay {
  const floor = draft.settings.riskFloor.trim();
  return {
    domain,
    description: draft.description,
    keywords: splitList(draft.keywords, ","),
    priority_overrides: Object.fromEntries(
      draft.overrides.map((o) => [o.id.trim(), numberOrText(o.priority)]),
    ),
    additional_principles: draft.principles.map((p) => draftToPrinciple(p, domain)),
    sensitive: draft.settings.sensitive,
    excluded: draft.settings.excluded,
    sensitive_risk_floor: floor === "" ? null : numberOrText(floor),
    refusal_redirection: draft.settings.refusalRedirection,
    simulator_domain_guidance: draft.settings.simulatorGuidance,
  };
}

/** The edits from the draft the text was read as to `draft`, or null when principle rows were reordered. */
function overlayEdits(
  domain: string,
  draft: OverlayDraft,
  from: OverlayDraft,
  grain: EditGrain,
): YamlEdit[] | null {
  const { additional_principles: _wasList, ...was } = overlayToYaml(draftToOverlay(domain, from));
  const { additional_principles: _isList, ...is } = overlayToYaml(draftToOverlay(domain, draft));
  // `domain` is never edited here; the file may leave it out.
  const fields = Object.keys({ ...was, ...is }).filter((key) => key !== "domain");
  const principles = principleListEdits(
    "additional_principles",
    from.principles,
    draft.principles,
    domain,
    grain,
  );
  if (principles === null) return null;
  return [...fields.flatMap((key) => valueEdits([key], was[key], is[key], grain)), ...principles];
}

/**
 * The overlay's YAML the form describes. Given the text the draft was read from, only the
 * lines of what changed are rewritten, so comments, quoting and list styles stay and the
 * version's diff shows the edit alone; when that cannot be done faithfully (checked by
 * reading the result back), the whole file is written by the engine's serializer.
 */
export function draftToYaml(
  domain: string,
  draft: OverlayDraft,
  readFrom?: { draft: OverlayDraft; text: string },
): string {
  const patched = readFrom
    ? patchedText(
        readFrom.text,
        (grain) => overlayEdits(domain, draft, readFrom.draft, grain),
        (text) => {
          const check = draftFromYaml(text, domain);
          return (
            check.ok && same(draftToOverlay(domain, check.draft), draftToOverlay(domain, draft))
          );
        },
      )
    : null;
  return patched ?? serializeOverlay(draftToOverlay(domain, draft));
}
