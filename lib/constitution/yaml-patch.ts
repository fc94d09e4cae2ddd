import { Document, isMap, isScalar, isSeq, parseDocument, type Pair, type ParsedNode } from "yaml";

type PathItem = string | number;

/**
 * One change to a YAML file, made in its text so that everything else (comments,
 * quoting, folding, blank lines) stays as written.
 * - `set`: give the key at `path` this value, in the old value's style; when the key is
 *   absent, add it to its mapping (`where`: after the last key, or before the first).
 * - `delete`: remove the key at `path`, or the sequence item when its last step is a
 *   number; nothing to do when it is absent.
 * - `append`: add `value` as the last item of the sequence at `path` (in a flow list, a
 *   scalar only, on the last item's line).
 */
export type YamlEdit =
  | { op: "set"; path: readonly PathItem[]; value: unknown; where?: "start" | "end" }
  | { op: "delete"; path: readonly PathItem[] }
  | { op: "append"; path: readonly PathItem[]; value: unknown };

type Splice = { start: number; end: number; text: string; order: number };
type Ranged = ParsedNode & { range: [number, number, number] };

const LINE_WIDTH = 80;
const RENDER = { flowCollectionPadding: false } as const;

const lineStart = (text: string, offset: number) => text.lastIndexOf("\n", offset - 1) + 1;
const column = (text: string, offset: number) => offset - lineStart(text, offset);
/** Indents every line but the first by `by` spaces (blank lines stay empty). */
const indentRest = (block: string, by: number) =>
  block.replace(/\n(?=[^\n])/g, `\n${" ".repeat(by)}`);
const indentAll = (block: string, by: number) => " ".repeat(by) + indentRest(block, by);

function nodeAt(doc: Document.Parsed, path: readonly PathItem[]): unknown {
  return path.length === 0 ? doc.contents : doc.getIn(path, true);
}

function pairAt(
  doc: Document.Parsed,
  path: readonly PathItem[],
): { map: unknown; pair: Pair<Ranged, Ranged | null> | undefined } {
  const map = nodeAt(doc, path.slice(0, -1));
  const key = path.at(-1);
  if (!isMap(map)) return { map, pair: undefined };
  const pair = map.items.find((p) => isScalar(p.key) && p.key.value === key) as
    Pair<Ranged, Ranged | null> | undefined;
  return { map, pair };
}

/**
 * Gives a new node the style of the node it replaces or sits beside (`like`): quoting and
 * folding of strings, flow or block lists, and, in a mapping, each value's style by key.
 */
function styleLike(node: unknown, like: unknown): void {
  if (
    isScalar(like) &&
    isScalar(node) &&
    typeof like.value === "string" &&
    typeof node.value === "string"
  )
    node.type = like.type;
  if (isSeq(like) && isSeq(node)) {
    node.flow = like.flow;
    const types = new Set(like.items.map((i) => (isScalar(i) ? i.type : undefined)));
    const [type] = [...types];
    if (types.size === 1 && type)
      for (const item of node.items)
        if (isScalar(item) && typeof item.value === "string") item.type = type;
  }
  if (isMap(like) && isMap(node) && !like.flow) {
    for (const pair of node.items)
      styleLike(
        pair.value,
        like.items.find(
          (p) => isScalar(p.key) && isScalar(pair.key) && p.key.value === pair.key.value,
        )?.value,
      );
  }
}

const render = (doc: Document, indent: number) =>
  doc.toString({ ...RENDER, lineWidth: Math.max(40, LINE_WIDTH - indent) });

/** `key: value` as YAML text, the value in the style of `like` where that keeps its meaning. */
function renderPair(key: PathItem, value: unknown, like: unknown, indent: number): string {
  const doc = new Document({ [key]: value });
  styleLike(doc.get(key, true), like);
  return render(doc, indent);
}

/** Characters a plain scalar cannot hold inside a flow list. */
const FLOW_INDICATOR = /[,[\]{}#]|: /;

/** `, value` after the last item of a flow list (scalars only), in that item's style, on its line. */
function flowAppend(last: unknown, value: unknown, order: number): Splice | null {
  const item = last as Ranged | null | undefined;
  if (
    !item?.range ||
    !isScalar(item) ||
    (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean")
  )
    return null;
  const added = new Document(value);
  styleLike(added.contents, item);
  let rendered = added.toString({ lineWidth: 0 }).trimEnd();
  if (
    isScalar(added.contents) &&
    added.contents.type !== "QUOTE_SINGLE" &&
    FLOW_INDICATOR.test(rendered)
  ) {
    added.contents.type = "QUOTE_DOUBLE";
    rendered = added.toString({ lineWidth: 0 }).trimEnd();
  }
  if (rendered.includes("\n")) return null;
  const at = item.range[1];
  return { start: at, end: at, text: `, ${rendered}`, order };
}

function spliceFor(
  doc: Document.Parsed,
  text: string,
  edit: YamlEdit,
  order: number,
): Splice | "none" | null {
  if (edit.op === "append") {
    const seq = nodeAt(doc, edit.path);
    if (!isSeq(seq) || seq.items.length === 0) return null;
    if (seq.flow) return flowAppend(seq.items.at(-1), edit.value, order);
    const first = seq.items[0] as Ranged | null;
    const last = seq.items.at(-1) as Ranged | null;
    const end = (seq as Ranged).range[1];
    if (!first?.range || !last?.range) return null;
    const dash = text.slice(lineStart(text, first.range[0]), first.range[0]).indexOf("-");
    if (dash < 0) return null;
    const second = seq.items[1] as Ranged | undefined;
    const spaced = second?.range
      ? /\n\s*\n/.test(text.slice(first.range[1] - 1, lineStart(text, second.range[0])))
      : false;
    const added = new Document([edit.value]);
    styleLike(added.getIn([0], true), last);
    const item = indentAll(render(added, dash), dash);
    return {
      start: end,
      end,
      text: `${text[end - 1] === "\n" ? "" : "\n"}${spaced ? "\n" : ""}${item}`,
      order,
    };
  }

  const last = edit.path.at(-1);
  if (edit.op === "delete" && typeof last === "number") {
    const seq = nodeAt(doc, edit.path.slice(0, -1));
    if (!isSeq(seq) || seq.flow) return null;
    const item = seq.items[last] as Ranged | undefined;
    if (!item?.range) return null;
    let start = lineStart(text, item.range[0]);
    if (!/^\s*-\s*$/.test(text.slice(start, item.range[0]))) return null;
    let end = item.range[2];
    // Keep one blank line between the items left: take the removed item's separator with it.
    if (last < seq.items.length - 1 && text.startsWith("\n", end)) end += 1;
    else if (last === seq.items.length - 1 && text.slice(0, start).endsWith("\n\n")) start -= 1;
    return { start, end, text: "", order };
  }

  if (last === undefined) return null;
  const { map, pair } = pairAt(doc, edit.path);
  if (!isMap(map) || map.flow) return null;
  if (edit.op === "delete") {
    if (!pair) return "none";
    const start = lineStart(text, pair.key.range[0]);
    if (!pair.value?.range || text.slice(start, pair.key.range[0]).trim() !== "") return null;
    return { start, end: pair.value.range[2], text: "", order };
  }

  if (pair) {
    if (!pair.value?.range) return null;
    const block = blockScalarSplice(text, pair.value, edit.value, order);
    if (block) return block;
    const start = pair.key.range[0];
    const end = pair.value.range[1];
    const col = column(text, start);
    let rendered = indentRest(renderPair(last, edit.value, pair.value, col), col);
    if (text[end - 1] !== "\n") rendered = rendered.replace(/\n$/, "");
    return { start, end, text: rendered, order };
  }
  const keys = map.items.map((p) => p.key as Ranged | null);
  const firstKey = keys[0];
  if (!firstKey?.range) return null;
  const col = column(text, firstKey.range[0]);
  const rendered = indentAll(renderPair(last, edit.value, undefined, col), col);
  if (edit.where === "start") {
    const start = lineStart(text, firstKey.range[0]);
    if (text.slice(start, firstKey.range[0]).trim() !== "") return null;
    return { start, end: start, text: rendered, order };
  }
  const end = (map as Ranged).range[1];
  return { start: end, end, text: `${text[end - 1] === "\n" ? "" : "\n"}${rendered}`, order };
}

/** A block scalar's header (`>`, `|-`, `>2+`, ... and any comment) and the offset its content starts at. */
const BLOCK_HEADER = /^[|>](?:[1-9][-+]?|[-+][1-9]?)?[ \t]*(?:#[^\n]*)?\n/;

/** The words of `line` broken into lines of at most `width` characters at single spaces. */
function wrapWords(line: string, width: number): string[] {
  const out: string[] = [];
  let current = "";
  for (const word of line.split(" ")) {
    if (current && current.length + 1 + word.length > width) {
      out.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) out.push(current);
  return out;
}

/**
 * A new string for a block scalar (`>` folded or `|` literal), written in its content
 * lines only: the header (style, chomping, indentation indicator) stays, the trailing
 * line breaks follow the header's chomping, and the lines the change does not reach
 * keep their own breaks. A folded paragraph is rewrapped only between the first and
 * the last line that changed, so a one-word edit is a one-line diff. Null for anything
 * it cannot write that way (several paragraphs, more-indented lines, leading or doubled
 * spaces, an indentation indicator); the caller then renders the value whole.
 */
function blockScalarSplice(
  text: string,
  node: unknown,
  value: unknown,
  order: number,
): Splice | null {
  if (!isScalar(node) || typeof value !== "string" || typeof node.value !== "string") return null;
  if (node.type !== "BLOCK_FOLDED" && node.type !== "BLOCK_LITERAL") return null;
  const [start, end] = (node as Ranged).range;
  const header = BLOCK_HEADER.exec(text.slice(start, end))?.[0];
  if (!header || /[1-9]/.test(header.split("#")[0]!)) return null;
  const contentStart = start + header.length;
  const sourceLines = text.slice(contentStart, end).replace(/\n+$/, "").split("\n");
  const indent = /^ */.exec(sourceLines[0] ?? "")![0].length;
  if (indent === 0) return null;
  const own = sourceLines.map((l) => l.slice(indent));
  if (sourceLines.some((l) => l.trim() !== "" && !l.startsWith(" ".repeat(indent)))) return null;
  // The value's own trailing line breaks are the header's to say (`>` one, `>-` none, `>+` all).
  const trailing = /\n*$/.exec(node.value)![0];
  const body = value.replace(/\n+$/, "");
  if (body === "" || body.startsWith(" ") || /\n /.test(body)) return null;
  let lines: string[];
  if (node.type === "BLOCK_LITERAL") {
    lines = body.split("\n");
  } else {
    if (body.includes("\n") || / {2}|\t/.test(body) || own.some((l) => /^\s|\s$|^$/.test(l)))
      return null;
    let head = 0;
    let rest = body;
    while (head < own.length && (rest === own[head] || rest.startsWith(`${own[head]} `))) {
      rest = rest.slice(own[head]!.length + 1);
      head += 1;
    }
    if (head === own.length && rest !== "") {
      // Text added after the last line continues that line, wrapped.
      head -= 1;
      rest = `${own[head]} ${rest}`;
    }
    if (head === own.length) {
      lines = own;
    } else {
      let tail = own.length;
      while (
        tail > head &&
        (rest === own[tail - 1] || rest.endsWith(` ${own[tail - 1]}`)) &&
        rest.length > own[tail - 1]!.length
      ) {
        rest = rest.slice(0, rest.length - own[tail - 1]!.length - 1);
        tail -= 1;
      }
      const middle = rest === "" ? [] : wrapWords(rest, Math.max(40, LINE_WIDTH - indent));
      lines = [...own.slice(0, head), ...middle, ...own.slice(tail)];
    }
  }
  const written = lines.map((l) => (l === "" ? "" : " ".repeat(indent) + l)).join("\n");
  const keepsEnd = text.slice(contentStart, end).endsWith("\n") || trailing !== "";
  return {
    start: contentStart,
    end,
    text: `${written}${keepsEnd ? "\n".repeat(Math.max(1, trailing.length)) : ""}`,
    order,
  };
}

/**
 * Applies `edits` to YAML `text` by splicing only the lines they touch. Returns null when
 * it cannot do that faithfully (a syntax error, a flow mapping to change, edits that
 * overlap); the caller then writes the whole file instead.
 */
export function patchYaml(text: string, edits: readonly YamlEdit[]): string | null {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length) return null;
  const splices: Splice[] = [];
  for (const [i, edit] of edits.entries()) {
    const splice = spliceFor(doc, text, edit, i);
    if (splice === null) return null;
    if (splice !== "none") splices.push(splice);
  }
  // From the end backwards, so earlier offsets stay valid; insertions at one offset keep their order.
  splices.sort((a, b) => b.start - a.start || b.order - a.order);
  let out = text;
  let limit = Infinity;
  for (const s of splices) {
    if (s.end > limit) return null;
    out = out.slice(0, s.start) + s.text + out.slice(s.end);
    limit = s.start;
  }
  return out;
}
