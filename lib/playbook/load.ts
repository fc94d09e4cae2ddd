import { kindOf } from "./extraction";
import { formatKeypointName, highestKptNumber } from "./names";
import { emptyPlaybook, PLAYBOOK_VERSION, type Playbook, type PlaybookEntry } from "./schema";

export type LoadResult = { playbook: Playbook; warnings: string[] };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const show = (v: unknown) => JSON.stringify(v) ?? String(v);

/** A counter from a file: a whole number >= 0 as is; anything else made one, with a warning. */
function readCount(value: unknown, where: string, warnings: string[]): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && value.trim() !== ""
        ? Number(value)
        : Number.NaN;
  if (!Number.isFinite(n)) {
    warnings.push(`${where} is ${show(value)}, not a count: taken as 0`);
    return 0;
  }
  const fixed = Math.max(0, Math.trunc(n));
  warnings.push(`${where} is ${show(value)}: taken as ${fixed}`);
  return fixed;
}

/** A legacy `score` (the playbook spec's Format 3): a whole number as is; a numeric string or a fraction made one, with a warning. */
function readScore(value: unknown, where: string, warnings: string[]): number {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && value.trim() !== ""
        ? Number(value)
        : Number.NaN;
  if (!Number.isFinite(n)) {
    warnings.push(`${where} is ${show(value)}, not a number: taken as 0`);
    return 0;
  }
  warnings.push(`${where} is ${show(value)}: taken as ${Math.trunc(n)}`);
  return Math.trunc(n);
}

function counters(
  item: Record<string, unknown>,
  where: string,
  warnings: string[],
): { helpful: number; harmful: number } {
  const has = (k: string) => Object.hasOwn(item, k);
  if (has("helpful") && has("harmful"))
    return {
      helpful: readCount(item.helpful, `${where}.helpful`, warnings),
      harmful: readCount(item.harmful, `${where}.harmful`, warnings),
    };
  if (has("score")) {
    if (has("helpful") || has("harmful"))
      warnings.push(
        `${where} has score and only ${has("helpful") ? "helpful" : "harmful"}: both counts taken from score`,
      );
    const score = readScore(item.score, `${where}.score`, warnings);
    return { helpful: Math.max(score, 0), harmful: Math.max(-score, 0) };
  }
  if (has("helpful") || has("harmful")) {
    const [present, missing] = has("helpful") ? ["helpful", "harmful"] : ["harmful", "helpful"];
    warnings.push(`${where} has ${present} but no ${missing}: ${missing} taken as 0`);
    return {
      helpful: has("helpful") ? readCount(item.helpful, `${where}.helpful`, warnings) : 0,
      harmful: has("harmful") ? readCount(item.harmful, `${where}.harmful`, warnings) : 0,
    };
  }
  return { helpful: 0, harmful: 0 };
}

/**
 * The playbook spec's load_playbook on a file's text (null when there is no file), as the ACE
 * fork does it: the three legacy formats (bare string, dict without counters, dict
 * with `score`) become canonical entries (`helpful = max(score, 0)`,
 * `harmful = max(-score, 0)`, `score` dropped); names and every other field of an
 * entry, and every other top-level field, are kept as they are; a missing name gets
 * the highest `kpt_` number so far plus one. A missing or corrupt file gives the empty
 * playbook; a file without `key_points` keeps its version and `last_updated`.
 * Charter also skips entries without text and renames repeated names (each with a
 * warning), and warns on what it had to repair, so a bad entry never loses the file.
 */
export function loadPlaybook(text: string | null): LoadResult {
  if (text === null)
    return {
      playbook: emptyPlaybook(),
      warnings: ["no playbook file: starting with an empty playbook"],
    };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return {
      playbook: emptyPlaybook(),
      warnings: [
        `the playbook is not valid JSON (${error instanceof Error ? error.message : String(error)}): starting with an empty playbook`,
      ],
    };
  }
  if (!isRecord(raw))
    return {
      playbook: emptyPlaybook(),
      warnings: [
        `the playbook is ${kindOf(raw)}, not a JSON object with key_points: starting with an empty playbook`,
      ],
    };

  const warnings: string[] = [];
  let version: string | number = PLAYBOOK_VERSION;
  if (
    (typeof raw.version === "string" && raw.version !== "") ||
    (typeof raw.version === "number" && Number.isFinite(raw.version))
  )
    version = raw.version;
  else if (raw.version !== undefined)
    warnings.push(`version is ${show(raw.version)}, not a text: taken as "${PLAYBOOK_VERSION}"`);
  let last_updated: string | null = null;
  if (typeof raw.last_updated === "string") last_updated = raw.last_updated;
  else if (raw.last_updated !== undefined && raw.last_updated !== null)
    warnings.push(`last_updated is ${show(raw.last_updated)}, not a time: taken as null`);

  let items: unknown[] = [];
  if (Array.isArray(raw.key_points)) items = raw.key_points;
  else if (raw.key_points === undefined) {
    warnings.push(
      Object.hasOwn(raw, "sections")
        ? "the playbook has sections but no key_points (the ACE fork's later sections format, which the playbook spec does not cover): its sections are kept as they are, not read"
        : "the playbook has no key_points: starting with no key points (its other fields are kept)",
    );
  } else
    warnings.push(
      `key_points is ${kindOf(raw.key_points)}, not a list: starting with no key points (the other fields are kept)`,
    );

  // A generated name never takes a name the file gives to a later entry.
  const given = new Set(
    items.flatMap((i) =>
      isRecord(i) && typeof i.name === "string" && i.name !== "" ? [i.name] : [],
    ),
  );
  const seen = new Set<string>();
  const generate = () => {
    let n = highestKptNumber(seen) + 1n;
    while (given.has(formatKeypointName(n)) || seen.has(formatKeypointName(n))) n++;
    return formatKeypointName(n);
  };

  const key_points: PlaybookEntry[] = [];
  items.forEach((item, index) => {
    const where = `key_points[${index}]`;
    if (typeof item === "string") {
      if (item.trim() === "") return void warnings.push(`${where} is an empty text: skipped`);
      const name = generate();
      seen.add(name);
      key_points.push({ name, text: item, helpful: 0, harmful: 0 });
      return;
    }
    if (!isRecord(item))
      return void warnings.push(`${where} is ${kindOf(item)}, not a text or an entry: skipped`);
    if (typeof item.text !== "string" || item.text.trim() === "")
      return void warnings.push(
        `${where}${typeof item.name === "string" ? ` (${item.name})` : ""} has no text: skipped`,
      );
    let name: string | null = null;
    if (typeof item.name === "string" && item.name !== "") {
      if (seen.has(item.name))
        warnings.push(`${where} repeats the name ${item.name}: given a new one`);
      else name = item.name;
    } else if (item.name !== undefined)
      warnings.push(`${where} has the name ${show(item.name)}, not a text: given a new one`);
    name ??= generate();
    seen.add(name);
    const { helpful, harmful } = counters(item, where, warnings);
    const kept = Object.fromEntries(Object.entries(item).filter(([k]) => k !== "score"));
    key_points.push({ ...kept, name, text: item.text, helpful, harmful });
  });
  return { playbook: { ...raw, version, last_updated, key_points }, warnings };
}
