import {
  findNodeAtLocation,
  getNodeValue,
  parseTree,
  printParseErrorCode,
  type JSONPath,
  type Node,
  type ParseError,
} from "jsonc-parser";
import { CliError } from "../../errors";

/**
 * Edits of another program's JSON settings made in place, on the text: only the bytes of
 * what is added, replaced or removed change, so the owner's comments, order and layout stay
 * as they were, and removing what was added gives the original text back.
 */
export type JsonDocument = {
  file: string;
  text: string;
  root: Node;
  value: Record<string, unknown>;
  /** The file's line ending and indentation unit, used for what is added. */
  eol: string;
  unit: string;
  comments: boolean;
};

/** Plain words for the parse errors people make by hand; the others keep jsonc-parser's name. */
const PROBLEMS: Record<string, string> = {
  InvalidSymbol: "unexpected text",
  InvalidCommentToken: "a comment, which this file may not hold",
  PropertyNameExpected: "a property name expected",
  ValueExpected: "a value expected",
  ColonExpected: '":" expected',
  CommaExpected: '"," expected',
  CloseBraceExpected: '"}" expected',
  CloseBracketExpected: '"]" expected',
  EndOfFileExpected: "text after the end",
  UnexpectedEndOfString: "a string left open",
};

function describe(code: ParseError["error"]): string {
  const name = printParseErrorCode(code);
  return PROBLEMS[name] ?? name;
}

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/**
 * Parses a settings file's text: an object in JSON, or JSON with comments when `comments`
 * (as Gemini CLI reads its settings). Anything else stops with the file, the place and
 * what is wrong there.
 */
export function parseJsonDocument(
  text: string,
  file: string,
  { comments }: { comments: boolean },
): JsonDocument {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, {
    disallowComments: !comments,
    allowTrailingComma: false,
    allowEmptyContent: false,
  });
  const error = errors[0];
  if (error || !root)
    throw new CliError(
      `${file} is not valid JSON${comments ? " (with comments)" : ""}: ${
        error ? `${describe(error.error)} at ${lineColumn(text, error.offset)}` : "empty"
      }; fix it by hand first.`,
    );
  if (root.type !== "object")
    throw new CliError(`${file} does not hold a JSON object; fix it by hand first.`);
  return {
    file,
    text,
    root,
    value: getNodeValue(root) as Record<string, unknown>,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
    unit: /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ",
    comments,
  };
}

/** Parses the document's text after an edit (same file, same options). */
export function reparse(doc: JsonDocument, text: string): JsonDocument {
  return parseJsonDocument(text, doc.file, { comments: doc.comments });
}

/** The indentation of the line `offset` is on, and whether only that indentation comes before it. */
function lineIndent(text: string, offset: number): { indent: string; ownLine: boolean } {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  const before = text.slice(start, offset);
  const indent = /^[ \t]*/.exec(before)![0];
  return { indent, ownLine: indent.length === before.length };
}

function render(doc: JsonDocument, value: unknown, indent: string, multiline: boolean): string {
  if (!multiline) return JSON.stringify(value);
  return JSON.stringify(value, null, doc.unit)
    .split("\n")
    .join(doc.eol + indent);
}

function splice(text: string, start: number, end: number, content: string): string {
  return text.slice(0, start) + content + text.slice(end);
}

function nodeAt(doc: JsonDocument, at: JSONPath): Node {
  const node = at.length === 0 ? doc.root : findNodeAtLocation(doc.root, at);
  if (!node) throw new Error(`no value at ${JSON.stringify(at)} in ${doc.file}`);
  return node;
}

/**
 * Adds `content` (an item, or `"key": value`) after a container's last child, in the
 * children's own style: on a line of its own at their indentation, or after a comma and a
 * space when they share a line. An empty container gets the child on its own line, one
 * unit deeper than the container's line. A comment after the last child on its line ends
 * up after the new one (and back in its place once removeAt takes the new one out).
 */
function addChild(
  doc: JsonDocument,
  container: Node,
  content: (indent: string, multiline: boolean) => string,
): string {
  const { text } = doc;
  const last = container.children?.at(-1);
  if (last) {
    const end = last.offset + last.length;
    const { indent, ownLine } = lineIndent(text, last.offset);
    return splice(
      text,
      end,
      end,
      ownLine ? `,${doc.eol}${indent}${content(indent, true)}` : `, ${content(indent, false)}`,
    );
  }
  const open = container.offset + 1;
  const close = container.offset + container.length - 1;
  const outer = lineIndent(text, container.offset).indent;
  const inner = outer + doc.unit;
  const child = `${doc.eol}${inner}${content(inner, true)}`;
  // Only comments inside: they stay, after the new child.
  return text.slice(open, close).trim()
    ? splice(text, open, open, child)
    : splice(text, open, close, `${child}${doc.eol}${outer}`);
}

/** The text with `"key": value` added as the last property of the object at `at`. */
export function addProperty(doc: JsonDocument, at: JSONPath, key: string, value: unknown): string {
  return addChild(
    doc,
    nodeAt(doc, at),
    (indent, multiline) => `${JSON.stringify(key)}: ${render(doc, value, indent, multiline)}`,
  );
}

/** The text with `value` added as the last item of the array at `at`. */
export function appendItem(doc: JsonDocument, at: JSONPath, value: unknown): string {
  return addChild(doc, nodeAt(doc, at), (indent, multiline) =>
    render(doc, value, indent, multiline),
  );
}

/** The text with the value at `at` replaced, laid out as the old one was (on several lines or one). */
export function replaceValue(doc: JsonDocument, at: JSONPath, value: unknown): string {
  const node = nodeAt(doc, at);
  const end = node.offset + node.length;
  const multiline = doc.text.slice(node.offset, end).includes("\n");
  const { indent } = lineIndent(doc.text, node.offset);
  return splice(doc.text, node.offset, end, render(doc, value, indent, multiline));
}

/**
 * The text without the array item or object property at `at`, and without the comma and
 * space that separated it from its neighbour: the inverse of addProperty and appendItem.
 */
export function removeAt(doc: JsonDocument, at: JSONPath): string {
  const value = nodeAt(doc, at);
  const node = value.parent?.type === "property" ? value.parent : value;
  const siblings = node.parent?.children ?? [];
  const index = siblings.indexOf(node);
  const previous = siblings[index - 1];
  const next = siblings[index + 1];
  if (previous)
    return splice(doc.text, previous.offset + previous.length, node.offset + node.length, "");
  if (next) return splice(doc.text, node.offset, next.offset, "");
  const container = node.parent!;
  return splice(doc.text, container.offset + 1, container.offset + container.length - 1, "");
}
