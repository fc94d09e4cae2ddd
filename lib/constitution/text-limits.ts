import { isMap, isScalar, isSeq, type Document, type Scalar } from "yaml";

/**
 * The characters a constitution may not hold, raw in a file or written as a YAML escape
 * (`"\0"`, `"\x07"`, `"\u0000"`, `"\e"`, `"\N"`...): every C0 control except tab, line feed
 * and carriage return; DEL and the C1 controls (U+007F-U+009F, NEL included); lone
 * surrogates; and the noncharacters U+FFFE and U+FFFF. YAML 1.2 allows no other controls
 * in a stream, and PostgreSQL cannot store U+0000 in text, so a principle holding one
 * would fail every prompt that retrieves it.
 */
export type ForbiddenCharacter = { offset: number; codePoint: number };

function isForbidden(unit: number): boolean {
  if (unit < 0x20) return unit !== 0x09 && unit !== 0x0a && unit !== 0x0d;
  return (unit >= 0x7f && unit <= 0x9f) || unit === 0xfffe || unit === 0xffff;
}

/** The forbidden characters of `text` by UTF-16 offset: the first `limit` of them, and how many there are in all. */
export function forbiddenCharacters(
  text: string,
  limit = Number.POSITIVE_INFINITY,
): { found: ForbiddenCharacter[]; total: number } {
  const found: ForbiddenCharacter[] = [];
  let total = 0;
  const add = (offset: number, codePoint: number) => {
    total++;
    if (found.length < limit) found.push({ offset, codePoint });
  };
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      if (i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
      else add(i, unit);
    } else if ((unit >= 0xdc00 && unit <= 0xdfff) || isForbidden(unit)) add(i, unit);
  }
  return { found, total };
}

/** `a NUL character (U+0000)`, `a control character (U+001B)`, `a lone surrogate (U+D800)`, `a noncharacter (U+FFFF)`. */
export function describeCharacter(codePoint: number): string {
  const code = `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
  if (codePoint === 0) return `a NUL character (${code})`;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return `a lone surrogate (${code})`;
  if (codePoint >= 0xfffe) return `a noncharacter (${code})`;
  return `a control character (${code})`;
}

/** Reported one by one per file; past this, one more issue says how many follow. */
export const MAX_CHARACTER_ISSUES = 10;

type PathItem = string | number;

/** `text` with each forbidden character shown as U+FFFD, so that an issue naming a key never prints one. */
function visible(text: string): string {
  const { found } = forbiddenCharacters(text);
  if (found.length === 0) return text;
  let out = "";
  let from = 0;
  for (const { offset } of found) {
    out += `${text.slice(from, offset)}\uFFFD`;
    from = offset + 1;
  }
  return out + text.slice(from);
}

/** A forbidden character found in a file: where, in which field (null outside any value, e.g. in a comment), and why. */
export type CharacterProblem = { offset: number; path: PathItem[] | null; reason: string };

/** Every scalar of a document (map keys included) with its path and source range. */
function scalarsOf(doc: Document): { path: PathItem[]; node: Scalar }[] {
  const out: { path: PathItem[]; node: Scalar }[] = [];
  // An explicit stack: a document may nest deeper than the call stack allows.
  const stack: { node: unknown; path: PathItem[] }[] = [{ node: doc.contents, path: [] }];
  while (stack.length) {
    const { node, path } = stack.pop()!;
    if (isScalar(node)) out.push({ path, node });
    else if (isSeq(node))
      node.items.forEach((item, i) => stack.push({ node: item, path: [...path, i] }));
    else if (isMap(node)) {
      for (const pair of node.items) {
        const key: PathItem = isScalar(pair.key) ? visible(String(pair.key.value)) : "?";
        if (isScalar(pair.key)) out.push({ path: [...path, key], node: pair.key });
        stack.push({ node: pair.value, path: [...path, key] });
      }
    }
  }
  return out;
}

function withRest(problems: CharacterProblem[], total: number): CharacterProblem[] {
  const rest = total - problems.length;
  const last = problems.at(-1);
  if (rest > 0 && last) last.reason += `; ${rest} more follow in this file`;
  return problems;
}

/**
 * The forbidden characters of one file. Raw ones are located at their own line and column,
 * in the field whose value holds them; when there are none, characters written as escapes
 * are reported at the start of the value that decodes to them.
 */
export function characterProblems(text: string, doc: Document): CharacterProblem[] {
  const raw = forbiddenCharacters(text, MAX_CHARACTER_ISSUES);
  if (raw.total > 0) {
    const scalars = scalarsOf(doc);
    const problems = raw.found.map(({ offset, codePoint }) => {
      const holder = scalars.find(
        ({ node }) => node.range && node.range[0] <= offset && offset < node.range[1],
      );
      return {
        offset,
        path: holder?.path ?? null,
        reason: `contains ${describeCharacter(codePoint)}; remove it`,
      };
    });
    return withRest(problems, raw.total);
  }
  // Only a double-quoted escape can make a forbidden character out of a clean file.
  if (!text.includes("\\")) return [];
  const escaped: CharacterProblem[] = [];
  for (const { path, node } of scalarsOf(doc)) {
    const [first] =
      node.type === "QUOTE_DOUBLE" && typeof node.value === "string"
        ? forbiddenCharacters(node.value, 1).found
        : [];
    if (first)
      escaped.push({
        offset: node.range?.[0] ?? 0,
        path,
        reason: `contains ${describeCharacter(first.codePoint)}, written as an escape; remove it`,
      });
  }
  escaped.sort((a, b) => a.offset - b.offset);
  return withRest(escaped.slice(0, MAX_CHARACTER_ISSUES), escaped.length);
}
