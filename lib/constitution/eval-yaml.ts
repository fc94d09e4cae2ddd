import {
  Document,
  isMap,
  isScalar,
  isSeq,
  parseDocument,
  Scalar,
  YAMLMap,
  YAMLSeq,
  type Node,
} from "yaml";
import { ValidationError } from "@/lib/errors";
import type { EvalSource } from "./eval-schema";

/**
 * Adding, changing and removing one case of an eval file, through the yaml library's
 * Document API: the case is edited as a node of the parsed document, and only its own
 * lines of the text are rewritten, so comments, quoting, blank lines and every other case
 * keep their text. Where the file's shape does not allow that (no `cases` list yet, a
 * flow list, the last case removed), the edited document is written whole; either way
 * the result is read back and must hold exactly the edited cases.
 */

/** One case as an eval file holds it; empty `expect`/`forbid` lists are left out. */
export type EvalCaseFields = {
  prompt: string;
  domains: string[];
  expect?: string[];
  forbid?: string[];
  note?: string;
  source?: EvalSource;
};

/** The order a case's keys are written in (a key added to a case goes to its place). */
const KEY_ORDER = ["prompt", "domains", "expect", "forbid", "note", "source"] as const;
type CaseKey = (typeof KEY_ORDER)[number];

/** No folding of long lines (a prompt stays on its line), and `[a, b]` as the shipped files write it. */
const RENDER = { lineWidth: 0, flowCollectionPadding: false } as const;

/** Prompts are one case each, compared as the loader compares them (cross-file.ts). */
export const promptKey = (prompt: string): string => prompt.trim().toLowerCase();

type Ranged = Node & { range: [number, number, number] };

const lineStart = (text: string, at: number) => text.lastIndexOf("\n", at - 1) + 1;

/** Where an item's text ends: the start of the line after its last line (its own trailing comments included). */
function itemEnd(text: string, node: Ranged): number {
  let end = node.range[2];
  while (end > 0 && text[end - 1] === " ") end -= 1;
  if (end > 0 && text[end - 1] !== "\n") {
    const newline = text.indexOf("\n", end);
    end = newline < 0 ? text.length : newline + 1;
  }
  return end;
}

/** A mapping as block YAML whose first line starts at `column` (the lines after it indented to match). */
function renderMap(node: YAMLMap, column: number): string {
  const copy = node.clone();
  copy.commentBefore = undefined;
  copy.spaceBefore = false;
  const text = new Document(copy).toString(RENDER);
  return text.replace(/\n(?=[^\n])/g, `\n${" ".repeat(column)}`);
}

const wanted = (fields: EvalCaseFields, key: CaseKey): unknown => {
  const value = fields[key];
  return Array.isArray(value) && value.length === 0 && key !== "domains" ? undefined : value;
};

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A scalar string in the style of `like` (its quoting), or plain. */
function scalarLike(value: string, like: unknown): Scalar {
  const node = new Scalar(value);
  if (isScalar(like) && typeof like.value === "string") node.type = like.type;
  return node;
}

/** A list of strings: items kept as written where they stay, new ones quoted like their siblings. */
function listLike(doc: Document, values: string[], like: unknown): YAMLSeq {
  const seq = new YAMLSeq(doc.schema);
  seq.flow = isSeq(like) ? like.flow === true : true;
  const old = isSeq(like) ? like.items : [];
  const sibling = old.find((i) => isScalar(i) && typeof i.value === "string");
  for (const value of values) {
    const kept = old.find((i) => isScalar(i) && i.value === value);
    seq.items.push(kept ?? scalarLike(value, sibling));
  }
  return seq;
}

/** The node for `key`'s new value, in the style of `like` (the value it replaces, or a sibling case's). */
function valueNode(doc: Document, key: CaseKey, value: unknown, like: unknown): Node {
  if (Array.isArray(value)) return listLike(doc, value as string[], like);
  if (typeof value === "string") return scalarLike(value, like);
  const node = doc.createNode(value) as Node;
  if (isMap(node)) {
    node.flow = false;
    // Quoted, so that a YAML 1.1 reader takes it as text, not as a timestamp.
    const at = node.get("at", true);
    if (isScalar(at)) at.type = "QUOTE_DOUBLE";
  }
  return node;
}

/**
 * Makes `node` say `fields`, changing only the keys whose value differs; a changed value
 * keeps the comments of the one it replaces. New values are styled like the old value,
 * else like the same key in the nearest of `siblings` (other cases, nearest first).
 */
function updateCase(
  doc: Document,
  node: YAMLMap,
  fields: EvalCaseFields,
  siblings: readonly YAMLMap[] = [],
): void {
  for (const key of KEY_ORDER) {
    const want = wanted(fields, key);
    const has = node.get(key, true);
    if (want === undefined) {
      node.delete(key);
      continue;
    }
    if (has !== undefined && sameValue((has as Node).toJSON(), want)) continue;
    if (isScalar(has) && typeof has.value === "string" && typeof want === "string") {
      has.value = want;
      continue;
    }
    // An id list with no list of its own to follow takes the style of the nearest id list.
    const idList = [node, ...siblings]
      .flatMap((n) => [n.get("expect", true), n.get("forbid", true)])
      .find((v) => isSeq(v) && v.items.length > 0);
    const like =
      has ??
      siblings.map((s) => s.get(key, true)).find((v) => v !== undefined) ??
      (key === "expect" || key === "forbid" ? idList : undefined);
    const value = valueNode(doc, key, want, like);
    const pair = node.items.find((p) => isScalar(p.key) && p.key.value === key);
    if (pair) {
      const old = pair.value as Node | null;
      value.comment = old?.comment;
      value.commentBefore = old?.commentBefore;
      pair.value = value;
      continue;
    }
    // A new key goes before the first key that comes after it in KEY_ORDER.
    const after = KEY_ORDER.slice(KEY_ORDER.indexOf(key) + 1);
    const at = node.items.findIndex(
      (p) => isScalar(p.key) && (after as readonly unknown[]).includes(p.key.value),
    );
    const added = doc.createPair(key, null);
    added.value = value;
    node.items.splice(at < 0 ? node.items.length : at, 0, added);
  }
}

type Edit = { doc: Document; splice: (() => string | null) | null };

function readFile(text: string, file: string): Document {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length)
    throw new ValidationError(
      `${file} is not valid YAML (${doc.errors[0]!.message.split("\n")[0]}); fix it before labelling.`,
    );
  if (doc.contents !== null && !isMap(doc.contents))
    throw new ValidationError(`${file} must be a mapping with a cases list.`);
  return doc;
}

/** The `cases` list of a parsed eval file, made a list when it is absent or empty. */
function casesOf(doc: Document): YAMLSeq {
  const cases = doc.get("cases", true);
  if (isSeq(cases)) return cases;
  if (cases !== undefined && !(isScalar(cases) && cases.value === null))
    throw new ValidationError("The eval file's cases must be a list.");
  const seq = new YAMLSeq(doc.schema);
  if (doc.contents === null) doc.contents = new YAMLMap(doc.schema);
  doc.set("cases", seq);
  return seq;
}

const indexOfPrompt = (seq: YAMLSeq, prompt: string) =>
  seq.items.findIndex((item) => {
    const value = isMap(item) ? item.get("prompt") : undefined;
    return typeof value === "string" && promptKey(value) === promptKey(prompt);
  });

/** The file's text after `edit`: its one-case splice when that reads back as the edited document, else the document written whole. */
function finish(edit: Edit): string {
  const whole = edit.doc.toString(RENDER);
  const spliced = edit.splice?.() ?? null;
  if (spliced === null) return whole;
  const back = parseDocument(spliced, { uniqueKeys: true, prettyErrors: false });
  if (back.errors.length) return whole;
  return sameValue(back.toJS(), parseDocument(whole).toJS()) ? spliced : whole;
}

/** A block list's item with its dash on its own line, or null (a flow list, `- - x`, no ranges). */
function blockItem(text: string, seq: YAMLSeq, item: unknown): Ranged | null {
  if (seq.flow || !isMap(item) || item.flow || !(item as Partial<Ranged>).range) return null;
  const node = item as unknown as Ranged;
  return /^[ ]*-[ ]+$/.test(text.slice(lineStart(text, node.range[0]), node.range[0]))
    ? node
    : null;
}

/**
 * Adds the case `fields`, or changes the case with the same prompt (compared as the loader
 * does: trimmed, any case) to say `fields`. `text` null: a new file, `header` its comment.
 * Returns the new text and whether a case was added or changed.
 */
export function putCase(
  text: string | null,
  fields: EvalCaseFields,
  options: { file: string; header?: string },
): { text: string; change: "added" | "updated" } {
  const fresh = text === null || text.trim() === "";
  const doc = fresh ? new Document({}) : readFile(text, options.file);
  if (fresh) doc.commentBefore = options.header ?? null;
  const seq = casesOf(doc);
  if (seq.items.length === 0) seq.flow = false;
  const index = indexOfPrompt(seq, fields.prompt);
  const src = text ?? "";
  if (index >= 0) {
    const node = seq.items[index] as YAMLMap;
    updateCase(doc, node, fields);
    const item = blockItem(src, seq, node);
    return {
      change: "updated",
      text: finish({
        doc,
        splice: item
          ? () =>
              src.slice(0, item.range[0]) +
              renderMap(node, item.range[0] - lineStart(src, item.range[0])) +
              src.slice(itemEnd(src, item))
          : null,
      }),
    };
  }
  const last = seq.items.at(-1);
  const node = new YAMLMap(doc.schema);
  updateCase(doc, node, fields, seq.items.filter(isMap).reverse());
  const lastItem = last === undefined ? null : blockItem(src, seq, last);
  // Cases separated by blank lines get one before the new case too.
  const spaced = seq.items.slice(1).some((i) => (i as Node).spaceBefore);
  node.spaceBefore = spaced;
  seq.items.push(node);
  const splice = lastItem
    ? () => {
        const at = itemEnd(src, lastItem);
        const dash = src.slice(lineStart(src, lastItem.range[0])).indexOf("-");
        const added = `${" ".repeat(dash)}- ${renderMap(node, dash + 2)}`;
        const head = src.slice(0, at);
        const gap = !head.endsWith("\n")
          ? spaced
            ? "\n\n"
            : "\n"
          : spaced && !head.endsWith("\n\n")
            ? "\n"
            : "";
        return `${head}${gap}${added}${src.slice(at)}`;
      }
    : null;
  return { change: "added", text: finish({ doc, splice }) };
}

/** Removes the case with this prompt; null when the file has none. */
export function dropCase(text: string, prompt: string, file: string): string | null {
  const doc = readFile(text, file);
  const cases = doc.get("cases", true);
  if (!isSeq(cases)) return null;
  const index = indexOfPrompt(cases, prompt);
  if (index < 0) return null;
  const item = blockItem(text, cases, cases.items[index]);
  cases.items.splice(index, 1);
  const emptied = cases.items.length === 0;
  if (emptied) cases.flow = true;
  // The last case gone, the list is written `cases: []` on the key's line.
  const key = isMap(doc.contents)
    ? (doc.contents.items.find((p) => isScalar(p.key) && p.key.value === "cases")?.key as
        Ranged | undefined)
    : undefined;
  return finish({
    doc,
    splice:
      item && (!emptied || key?.range)
        ? () => {
            const start = lineStart(text, item.range[0]);
            const end = itemEnd(text, item);
            if (!emptied) {
              // Cases separated by a blank line stay so; a case that becomes the first has none above it.
              const blank = (s: string) => s.endsWith("\n\n");
              const gap =
                index > 0 &&
                ((index < cases.items.length && blank(text.slice(0, start))) ||
                  blank(text.slice(start, end)) ||
                  text.startsWith("\n", end));
              const head = text.slice(0, start).replace(/\n\n+$/, "\n");
              return `${head}${gap ? "\n" : ""}${text.slice(end).replace(/^\n+/, "")}`;
            }
            const colon = text.indexOf(":", key!.range[1]);
            if (colon < 0 || colon > start || /[^ ]/.test(text.slice(key!.range[1], colon)))
              return null;
            return `${text.slice(0, colon + 1)} []${text.slice(colon + 1, start)}${text.slice(end)}`;
          }
        : null,
  });
}
