import { isMap, isScalar, LineCounter, parseDocument, visit, type Document } from "yaml";
import type { z } from "zod";
import type { ConstitutionIssue } from "./schema";
import { characterProblems } from "./text-limits";

/**
 * One constitution file read as YAML, and issues located in it: every issue names its
 * `file:line:column` and field path, from the YAML document's nodes.
 */

export type Located = { file: string; doc: Document; lines: LineCounter };
export type PathItem = string | number;

export function position(src: Located, offset: number): { line: number; column: number } {
  const { line, col } = src.lines.linePos(offset);
  return { line, column: col };
}

/** Formats a path like `principles[2].priority`. */
export function fieldName(path: readonly PathItem[]): string {
  let out = "";
  for (const item of path) out += typeof item === "number" ? `[${item}]` : out ? `.${item}` : item;
  return out || "(file)";
}

/** The offset of the node at `path`, or of its nearest existing ancestor; `key: true` points at a map key. */
export function offsetOf(src: Located, path: readonly PathItem[], key = false): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const prefix = path.slice(0, depth);
    if (key && depth === path.length && depth > 0) {
      const parent = src.doc.getIn(prefix.slice(0, -1), true);
      if (isMap(parent)) {
        const pair = parent.items.find(
          (p) => isScalar(p.key) && String(p.key.value) === String(prefix.at(-1)),
        );
        if (pair && isScalar(pair.key) && pair.key.range) return pair.key.range[0];
      }
      continue;
    }
    const node = depth === 0 ? src.doc.contents : src.doc.getIn(prefix, true);
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    if (range) return range[0];
  }
  return 0;
}

export function issueAt(
  src: Located,
  path: readonly PathItem[],
  reason: string,
  key = false,
): ConstitutionIssue {
  return {
    file: src.file,
    ...position(src, offsetOf(src, path, key)),
    field: fieldName(path),
    reason,
  };
}

export function zodIssues(src: Located, error: z.ZodError): ConstitutionIssue[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.filter(
      (p): p is PathItem => typeof p === "string" || typeof p === "number",
    );
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((k) => issueAt(src, [...path, k], "is not a known field", true));
    }
    const missing = path.length > 0 && !src.doc.hasIn(path);
    const reason = missing ? "is required" : issue.message;
    return [issueAt(src, path, reason)];
  });
}

/**
 * Reads one YAML file; YAML syntax errors and, when `checkText`, forbidden characters
 * (text-limits.ts) become issues with their positions.
 */
export function readYaml(
  file: { path: string; text: string },
  checkText: boolean,
): { src: Located; value: unknown; issues: ConstitutionIssue[] } {
  const lines = new LineCounter();
  const doc = parseDocument(file.text, {
    lineCounter: lines,
    uniqueKeys: true,
    prettyErrors: false,
  });
  const src = { file: file.path, doc, lines };
  const characters = checkText
    ? characterProblems(file.text, doc).map(({ offset, path, reason }) => ({
        file: file.path,
        ...position(src, offset),
        field: path ? fieldName(path) : "(file)",
        reason,
      }))
    : [];
  const syntax = doc.errors.map((error) => {
    const at = lines.linePos(error.pos[0]);
    return {
      file: file.path,
      line: at.line,
      column: at.col,
      field: "(yaml)",
      reason: error.message.split("\n")[0] ?? "invalid YAML",
    };
  });
  if (characters.length || syntax.length)
    return { src, value: undefined, issues: [...characters, ...syntax] };
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (error) {
    // The yaml library refuses a document whose aliases expand past its limit (an alias
    // "bomb": a few lines that would become billions of values); said at the first alias.
    return { src, value: undefined, issues: [expansionIssue(src, error)] };
  }
  if (value === null || value === undefined)
    return {
      src,
      value,
      issues: [
        { file: file.path, line: 1, column: 1, field: "(file)", reason: "the file is empty" },
      ],
    };
  if (typeof value !== "object" || Array.isArray(value)) {
    return {
      src,
      value,
      issues: [
        issueAt(
          src,
          [],
          "the file must be a mapping (key: value pairs), not a list or a single value",
        ),
      ],
    };
  }
  return { src, value, issues: [] };
}

/** A document that cannot be turned into values, named at its first alias (the usual cause). */
function expansionIssue(src: Located, error: unknown): ConstitutionIssue {
  let offset = 0;
  visit(src.doc, {
    Alias(_, node) {
      offset = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
  return {
    file: src.file,
    ...position(src, offset),
    field: "(yaml)",
    reason: `the aliases here expand too far to read (${detail}); write the values out instead of nesting aliases`,
  };
}
