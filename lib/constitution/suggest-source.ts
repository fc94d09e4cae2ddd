import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import { isMap, isScalar, isSeq, parseDocument, type Document } from "yaml";
import type { ConstitutionFile } from "./parse";
import { CORE_FILE, OVERLAYS_DIR } from "./schema";
import { withNotFor, type KeywordTarget, type SuggestedEdit } from "./suggest-edits";
import { patchYaml, type YamlEdit } from "./yaml-patch";

/** A suggested edit written into its YAML file: the file, its new text, and a unified diff of the one file. */
export type EditSource = { path: string; text: string; diff: string };

type PathItem = string | number;

/** The keys a principle's keywords may be written under (schema.ts merges them on load). */
const KEYWORD_KEYS = ["keywords", "keywords_block", "keywords_style"] as const;

function fileOf(
  files: readonly ConstitutionFile[],
  domain: string | null,
): ConstitutionFile | undefined {
  if (domain === null) return files.find((f) => f.path === CORE_FILE);
  return files.find(
    (f) =>
      f.path === `${OVERLAYS_DIR}/${domain}.yaml` || f.path === `${OVERLAYS_DIR}/${domain}.yml`,
  );
}

/** The YAML path of the mapping that holds a target's keywords, or null when the file has no such principle. */
function ownerPath(doc: Document, t: KeywordTarget): PathItem[] | null {
  if (t.kind === "overlay") return [];
  const list = t.domain === null ? "principles" : "additional_principles";
  const seq = doc.get(list, true);
  if (!isSeq(seq)) return null;
  const at = seq.items.findIndex((item) => isMap(item) && item.get("id") === t.id);
  return at < 0 ? null : [list, at];
}

function keywordEdits(
  doc: Document,
  owner: PathItem[],
  edit: Extract<SuggestedEdit, { target: KeywordTarget }>,
): YamlEdit[] {
  if (edit.op === "add_keyword") {
    const path = [...owner, "keywords"];
    const list = doc.getIn(path, true);
    return isSeq(list) && list.items.length > 0
      ? [{ op: "append", path, value: edit.keyword }]
      : [{ op: "set", path, value: [edit.keyword] }];
  }
  const gone = new Set(edit.keywords.map((k) => k.toLowerCase()));
  const removed = (item: unknown) =>
    isScalar(item) && gone.has(String(item.value).trim().toLowerCase());
  return KEYWORD_KEYS.flatMap((key): YamlEdit[] => {
    const path = [...owner, key];
    const list = doc.getIn(path, true);
    if (!isSeq(list) || !list.items.some(removed)) return [];
    // A flow list is written again whole (on its own lines); a block list loses the items' lines.
    if (list.flow)
      return [
        {
          op: "set",
          path,
          value: list.items.filter((i) => !removed(i)).map((i) => (isScalar(i) ? i.value : i)),
        },
      ];
    return list.items.flatMap((item, i): YamlEdit[] =>
      removed(item) ? [{ op: "delete", path: [...path, i] }] : [],
    );
  });
}

/** The edits made with the yaml Document API, for what patchYaml cannot splice: comments are kept, layout may change. */
function viaDocument(text: string, edits: readonly YamlEdit[]): string {
  const doc = parseDocument(text);
  // Deletions from the end, so the indexes of those before stay valid.
  const ordered = [...edits].sort((a, b) => {
    const ai = a.path.at(-1);
    const bi = b.path.at(-1);
    return typeof ai === "number" && typeof bi === "number" ? bi - ai : 0;
  });
  for (const edit of ordered) {
    if (edit.op === "append") doc.addIn(edit.path, edit.value);
    else if (edit.op === "set") doc.setIn(edit.path, edit.value);
    else doc.deleteIn(edit.path);
  }
  return doc.toString();
}

/**
 * An edit written into the one YAML file that holds what it changes, touching only the
 * lines it must (yaml-patch.ts; the Document API where a splice cannot be made, which
 * keeps comments), with a unified diff of that file. Null when the files hold no such
 * overlay or principle.
 */
export function editSource(
  files: readonly ConstitutionFile[],
  edit: SuggestedEdit,
): EditSource | null {
  const domain =
    edit.op === "add_not_for"
      ? edit.domain
      : edit.target.kind === "overlay"
        ? edit.target.domain
        : edit.target.domain;
  const file = fileOf(files, domain);
  if (!file) return null;
  const doc = parseDocument(file.text);
  if (doc.errors.length) return null;
  let edits: YamlEdit[];
  if (edit.op === "add_not_for") {
    const description = doc.get("description");
    edits = [
      {
        op: "set",
        path: ["description"],
        value: withNotFor(typeof description === "string" ? description : "", edit.word),
      },
    ];
  } else {
    const owner = ownerPath(doc, edit.target);
    if (!owner) return null;
    edits = keywordEdits(doc, owner, edit);
    if (edits.length === 0) return null;
  }
  const text = patchYaml(file.text, edits) ?? viaDocument(file.text, edits);
  const diff = createTwoFilesPatch(
    `a/${file.path}`,
    `b/${file.path}`,
    file.text,
    text,
    undefined,
    undefined,
    { context: 3, headerOptions: FILE_HEADERS_ONLY },
  );
  return { path: file.path, text, diff };
}
