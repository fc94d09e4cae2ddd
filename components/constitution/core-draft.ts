import { CORE_FILE, type Constitution } from "@/lib/constitution/schema";
import { principleToYaml, serializeConstitution } from "@/lib/constitution/serialize";
import { draftToPrinciple, onlyFields, principleDraft, readMapping, scalar, Unrepresentable, type DraftRead, type PrincipleDraft } from "./principle-draft";
import { patchYaml, type YamlEdit } from "./yaml-patch";

/** The core form's state: the file's description and its principles, every field as typed text. */
export type CoreDraft = { description: string; principles: PrincipleDraft[] };

const CORE_FIELDS = new Set(["description", "principles"]);
/** The keys `principleToYaml` writes for a core principle, in its order. */
const WRITTEN_FIELDS = ["id", "level", "priority", "title", "rule", "examples_allow", "examples_deny", "remediation", "domain", "keywords"] as const;

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
  return { description: draft.description, core: draft.principles.map((p) => draftToPrinciple(p, null)) };
}

const asYaml = (p: PrincipleDraft) => principleToYaml(draftToPrinciple(p, null), false);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The edits that turn `before` into `after`, one principle at `at`; keywords split across keywords_block/_style are merged. */
function principleEdits(at: readonly (string | number)[], before: PrincipleDraft, after: PrincipleDraft): YamlEdit[] {
  const [was, is] = [asYaml(before), asYaml(after)];
  return WRITTEN_FIELDS.flatMap((field): YamlEdit[] => {
    if (same(was[field], is[field])) return [];
    const set: YamlEdit = is[field] === undefined ? { op: "delete", path: [...at, field] } : { op: "set", path: [...at, field], value: is[field] };
    return field === "keywords" ? [set, { op: "delete", path: [...at, "keywords_block"] }, { op: "delete", path: [...at, "keywords_style"] }] : [set];
  });
}

/** The edits from the draft the text was read as to `draft`, or null when the rows were reordered. */
function coreEdits(draft: CoreDraft, from: CoreDraft): YamlEdit[] | null {
  const edits: YamlEdit[] = [];
  if (draft.description !== from.description) {
    edits.push(draft.description.trim() === "" ? { op: "delete", path: ["description"] } : { op: "set", path: ["description"], value: draft.description, where: "start" });
  }
  const oldIndex = new Map(from.principles.map((p, i) => [p.key, i]));
  const kept = new Set<string>();
  let previous = -1;
  for (const p of draft.principles) {
    const j = oldIndex.get(p.key);
    if (j === undefined) {
      edits.push({ op: "append", path: ["principles"], value: asYaml(p) });
      continue;
    }
    // The form only appends and removes; any other order is written out in full.
    if (j < previous || edits.some((e) => e.op === "append")) return null;
    previous = j;
    kept.add(p.key);
    const before = from.principles[j]!;
    if (p !== before) edits.push(...principleEdits(["principles", j], before, p));
  }
  from.principles.forEach((p, j) => {
    if (!kept.has(p.key)) edits.push({ op: "delete", path: ["principles", j] });
  });
  return edits;
}

/** `core.yaml` as the engine's serializer writes the draft: the whole file, comments gone. */
function serializeCore(draft: CoreDraft): string {
  const file = serializeConstitution({ ...draftToCore(draft), overlays: {} }).find((f) => f.path === CORE_FILE);
  if (!file) throw new Error(`serializeConstitution wrote no ${CORE_FILE}`);
  return file.text;
}

/**
 * The `core.yaml` the form describes. Given the text the draft was read from, only the
 * lines of what changed are rewritten, so comments and formatting stay and the version's
 * diff shows the edit alone; when that cannot be done faithfully (checked by reading the
 * result back), the whole file is written by the engine's serializer.
 */
export function coreDraftToYaml(draft: CoreDraft, readFrom?: { draft: CoreDraft; text: string }): string {
  if (readFrom) {
    const edits = coreEdits(draft, readFrom.draft);
    const patched = edits && patchYaml(readFrom.text, edits);
    const check = patched === null ? null : coreDraftFromYaml(patched);
    if (patched !== null && check?.ok && same(draftToCore(check.draft), draftToCore(draft))) return patched;
  }
  return serializeCore(draft);
}
