import { laxInteger, type ConstitutionIssue } from "./schema";
import { issueAt, type Located, type PathItem } from "./yaml-source";

/**
 * What moralstack's Pydantic models accept loosely, read the same way with a warning each
 * (so a file written for moralstack loads unchanged): numbers written as text, lax
 * booleans, empty keywords. What Pydantic refuses is left for the schema to refuse.
 */

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads priorities and override values as moralstack's Pydantic models do (laxInteger):
 * "90" and 90.0 load as 90, each text with a warning, so a file written for moralstack
 * loads unchanged; what Pydantic refuses is left for the schema to refuse. An empty
 * `priority_overrides:` means none, as moralstack reads it. Changes `value` in place.
 */
export function coerceNumbers(
  src: Located,
  value: Record<string, unknown>,
  principlesKey: string,
  warnings: ConstitutionIssue[],
): void {
  const coerce = (holder: Record<string, unknown>, key: string, path: PathItem[]) => {
    const raw = holder[key];
    if (typeof raw !== "string") return;
    const n = laxInteger(raw);
    if (n === null) return;
    holder[key] = n;
    warnings.push(
      issueAt(src, path, `is the text ${JSON.stringify(raw)}: read as the number ${n}`),
    );
  };
  const principles = value[principlesKey];
  if (Array.isArray(principles)) {
    principles.forEach((p, i) => {
      if (!isRecord(p)) return;
      coerce(p, "priority", [principlesKey, i, "priority"]);
      for (const key of KEYWORD_LISTS)
        dropEmptyKeywords(src, p, key, [principlesKey, i, key], warnings);
    });
  }
  if ("priority_overrides" in value && value.priority_overrides === null)
    delete value.priority_overrides;
  const overrides = value.priority_overrides;
  if (isRecord(overrides))
    for (const id of Object.keys(overrides)) coerce(overrides, id, ["priority_overrides", id]);
  if (principlesKey === "additional_principles") {
    dropEmptyKeywords(src, value, "keywords", ["keywords"], warnings);
    for (const key of ["sensitive", "excluded"]) coerceFlag(src, value, key, warnings);
    coerceFraction(src, value, "sensitive_risk_floor", warnings);
  }
}

const KEYWORD_LISTS = ["keywords", "keywords_block", "keywords_style"] as const;

/** An empty keyword matches nothing: moralstack drops it, and so does Charter, with a warning. */
function dropEmptyKeywords(
  src: Located,
  holder: Record<string, unknown>,
  key: string,
  path: PathItem[],
  warnings: ConstitutionIssue[],
): void {
  const list = holder[key];
  if (!Array.isArray(list)) return;
  const empty = list.flatMap((k, i) =>
    (typeof k === "string" && k.trim() === "") || k === null ? [i] : [],
  );
  if (empty.length === 0) return;
  for (const i of empty)
    warnings.push(
      issueAt(src, [...path, i], "is an empty keyword: it matches nothing and is left out"),
    );
  holder[key] = list.filter((_, i) => !empty.includes(i));
}

/** Pydantic's lax booleans, as moralstack reads `sensitive` and `excluded`. */
const LAX_TRUE = new Set(["1", "on", "t", "true", "y", "yes"]);
const LAX_FALSE = new Set(["0", "off", "f", "false", "n", "no"]);

/** `sensitive: "yes"` or `excluded: 1` is read as Pydantic reads it, with a warning; anything else is left for the schema to refuse. */
function coerceFlag(
  src: Located,
  holder: Record<string, unknown>,
  key: string,
  warnings: ConstitutionIssue[],
): void {
  const raw = holder[key];
  const text =
    typeof raw === "string"
      ? raw.trim().toLowerCase()
      : raw === 0 || raw === 1
        ? String(raw)
        : null;
  if (text === null) return;
  const flag = LAX_TRUE.has(text) ? true : LAX_FALSE.has(text) ? false : null;
  if (flag === null) return;
  holder[key] = flag;
  warnings.push(
    issueAt(src, [key], `is ${JSON.stringify(raw)}, not true or false: read as ${flag}`),
  );
}

/** `sensitive_risk_floor: "0.5"` is read as the number, with a warning, as Pydantic reads a float field. */
function coerceFraction(
  src: Located,
  holder: Record<string, unknown>,
  key: string,
  warnings: ConstitutionIssue[],
): void {
  const raw = holder[key];
  if (typeof raw !== "string" || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw.trim()))
    return;
  const n = Number(raw.trim());
  holder[key] = n;
  warnings.push(issueAt(src, [key], `is the text ${JSON.stringify(raw)}: read as the number ${n}`));
}
