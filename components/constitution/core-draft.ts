import { CORE_FILE, type Constitution } from "@/lib/constitution/schema";
import { serializeConstitution } from "@/lib/constitution/serialize";
import { patchedText, principleListEdits, same, type EditGrain } from "./draft-edits";
import {
  draftToPrinciple,
  onlyFields,
  principleDraft,
  readMapping,
  scalar,
  Unrepresentable,
  type DraftRead,
  type PrincipleDraft,
} from "./principle-draft";
import type { YamlEdit } from "./yaml-patch";

/** The core form's state: the file's description and its principles, every field as typed text. */
export type CoreDraft = { description: string; principles: PrincipleDraft[] };

const CORE_FIELDS = new Set(["description", "principles"]);

/**
 * Reads `core.yaml` into the form. Values the engine would refuse (a priority of 150,
 * an empty list of principles) are carried over; only shapes the form cannot hold
 * (YAML syntax errors, unknown fields, a list where a value belongs) are refused, with the reason.
 * A core principle's `domain` label is kept (moralstack writes `domain: core`).
 */
export function coreDraftFromYaml(text: string): DraftRead<CoreDraft> {
  return readMapping(text, (value) => {
    onlyFields(value, CORE_FIELDS);
    const principles = value.principles ?? [];
    if (!Array.isArray(principles)) throw new Unrepresentable("principles must be a list");
    return {
      description: scalar(value.description, "description"),
      principles: principles.map((p, i) => principleDraft(p, `principles[${i}]`, null)),
    };
  });
}

/** The core principles the form describes. */
export function draftToCore(draft: CoreDraft): Pick<Constitution, "description" | "core"> {
  return {
    description: draft.description,
    core: draft.principles.map((p) => draftToPrinciple(p, null)),
  };
}

/** The edits from the draft the text was read as to `draft`, or null when the rows were reordered. */
function coreEdits(draft: CoreDraft, from: CoreDraft, grain: EditGrain): YamlEdit[] | null {
  const principles = principleListEdits(
    "principles",
    from.principles,
    draft.principles,
    null,
    grain,
  );
  if (principles === null) return null;
  if (draft.description === from.description) return principles;
  const description: YamlEdit =
    draft.description.trim() === ""
      ? { op: "delete", path: ["description"] }
      : { op: "set", path: ["description"], value: draft.description, where: "start" };
  return [description, ...principles];
}

/** `core.yaml` as the engine's serializer writes the draft: the whole file, comments gone. */
function serializeCore(draft: CoreDraft): string {
  const file = serializeConstitution({ ...draftToCore(draft), overlays: {} }).find(
    (f) => f.path === CORE_FILE,
  );
  if (!file) throw new Error(`serializeConstitution wrote no ${CORE_FILE}`);
  return file.text;
}

/**
 * The `core.yaml` the form describes. Given the text the draft was read from, only the
 * lines of what changed are rewritten, so comments and formatting stay and the version's
 * diff shows the edit alone; when that cannot be done faithfully (checked by reading the
 * result back), the whole file is written by the engine's serializer.
 */
export function coreDraftToYaml(
  draft: CoreDraft,
  readFrom?: { draft: CoreDraft; text: string },
): string {
  const patched = readFrom
    ? patchedText(
        readFrom.text,
        (grain) => coreEdits(draft, readFrom.draft, grain),
        (text) => {
          const check = coreDraftFromYaml(text);
          return check.ok && same(draftToCore(check.draft), draftToCore(draft));
        },
      )
    : null;
  return patched ?? serializeCore(draft);
}
