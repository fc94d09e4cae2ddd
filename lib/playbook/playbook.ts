import { emptyPlaybook, PLAYBOOK_VERSION, type ExtractionResult, type Playbook, type PlaybookEntry } from "./schema";

/** Seed 004's pruning floor: a key point needs at least this many harmful ratings to be pruned (INV-SCORE-003). */
export const PRUNE_HARMFUL_FLOOR = 3;

/** Seed 004's prune rule: `harmful >= 3 and harmful > helpful`. */
export function shouldPrune(entry: Pick<PlaybookEntry, "helpful" | "harmful">): boolean {
  return entry.harmful >= PRUNE_HARMFUL_FLOOR && entry.harmful > entry.helpful;
}

/** The lowest free `kpt_NNN` name given the names already seen (seed 004's generate_keypoint_name). */
export function generateKeypointName(seen: ReadonlySet<string>): string {
  for (let n = 1; ; n++) {
    const name = `kpt_${String(n).padStart(3, "0")}`;
    if (!seen.has(name)) return name;
  }
}

export type LoadResult = { playbook: Playbook; warnings: string[] };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? Math.max(0, Math.trunc(v)) : 0);

/**
 * Seed 004's load_playbook on a file's text (null when there is no file): the three
 * legacy formats (bare string, dict without counters, dict with `score`) become
 * canonical entries (`helpful = max(score, 0)`, `harmful = max(-score, 0)`, `score`
 * dropped); canonical entries pass through unchanged; missing names are generated.
 * A missing or corrupt file gives the empty playbook and a warning, never a crash.
 */
export function loadPlaybook(text: string | null): LoadResult {
  if (text === null) return { playbook: emptyPlaybook(), warnings: ["no playbook file: starting with an empty playbook"] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { playbook: emptyPlaybook(), warnings: [`the playbook is not valid JSON (${error instanceof Error ? error.message : String(error)}): starting with an empty playbook`] };
  }
  if (!isRecord(raw) || !Array.isArray(raw.key_points)) return { playbook: emptyPlaybook(), warnings: ["the playbook has no key_points list: starting with an empty playbook"] };

  const warnings: string[] = [];
  const items = raw.key_points as unknown[];
  // Names given in the file are kept; generated names avoid every one of them.
  const seen = new Set<string>();
  const explicit = new Set(items.flatMap((i) => (isRecord(i) && typeof i.name === "string" && /^kpt_\d{3,}$/.test(i.name) ? [i.name] : [])));
  const key_points: PlaybookEntry[] = [];
  items.forEach((item, index) => {
    const text = typeof item === "string" ? item : isRecord(item) && typeof item.text === "string" ? item.text : null;
    if (text === null || text.trim() === "") {
      warnings.push(`key_points[${index}] has no text: skipped`);
      return;
    }
    let name = isRecord(item) && typeof item.name === "string" && /^kpt_\d{3,}$/.test(item.name) ? item.name : null;
    if (name && seen.has(name)) {
      warnings.push(`key_points[${index}] repeats the name ${name}: given a new one`);
      name = null;
    }
    if (isRecord(item) && typeof item.name === "string" && !name && !seen.has(item.name)) warnings.push(`key_points[${index}] has the name "${item.name}", not kpt_NNN: given a new one`);
    name ??= generateKeypointName(new Set([...seen, ...explicit]));
    seen.add(name);
    if (typeof item === "string") {
      key_points.push({ name, text, helpful: 0, harmful: 0 });
    } else if (isRecord(item) && ("helpful" in item || "harmful" in item)) {
      key_points.push({ name, text, helpful: count(item.helpful), harmful: count(item.harmful) });
    } else if (isRecord(item) && "score" in item) {
      const value = Number(item.score);
      const score = Number.isFinite(value) ? Math.trunc(value) : 0;
      key_points.push({ name, text, helpful: Math.max(score, 0), harmful: Math.max(-score, 0) });
    } else {
      key_points.push({ name, text, helpful: 0, harmful: 0 });
    }
  });
  return {
    playbook: { version: typeof raw.version === "string" ? raw.version : PLAYBOOK_VERSION, last_updated: typeof raw.last_updated === "string" ? raw.last_updated : null, key_points },
    warnings,
  };
}

export type PruneMode = "auto" | "approval";
export type UpdateResult = { playbook: Playbook; added: string[]; pruned: PlaybookEntry[]; candidates: PlaybookEntry[] };

/**
 * Seed 004's update_playbook_data: adds new key points with zero counters, applies
 * evaluations (helpful and harmful increment; neutral, unknown ratings and unknown
 * names change nothing), then prunes by `shouldPrune`. New points are never pruned
 * in the same call (they start at harmful 0). In `approval` mode nothing is removed:
 * entries meeting the rule are returned as candidates for a person to decide.
 */
export function updatePlaybookData(playbook: Playbook, extraction: ExtractionResult, mode: PruneMode = "auto"): UpdateResult {
  const key_points = playbook.key_points.map((k) => ({ ...k }));
  const seen = new Set(key_points.map((k) => k.name));
  const added: string[] = [];
  for (const text of extraction.new_key_points) {
    const name = generateKeypointName(seen);
    seen.add(name);
    key_points.push({ name, text, helpful: 0, harmful: 0 });
    added.push(name);
  }
  const byName = new Map(key_points.map((k) => [k.name, k]));
  for (const { name, rating } of extraction.evaluations) {
    const entry = byName.get(name);
    if (!entry) continue;
    if (rating === "helpful") entry.helpful++;
    else if (rating === "harmful") entry.harmful++;
  }
  const meets = key_points.filter((k) => shouldPrune(k));
  if (mode === "approval") return { playbook: { ...playbook, key_points }, added, pruned: [], candidates: meets };
  const prunedNames = new Set(meets.map((k) => k.name));
  return { playbook: { ...playbook, key_points: key_points.filter((k) => !prunedNames.has(k.name)) }, added, pruned: meets, candidates: [] };
}

/** Seed 004's formatted output: `[name] helpful=N harmful=N :: text`, one per line. */
export function formatPlaybook(entries: readonly PlaybookEntry[]): string {
  return entries.map((k) => `[${k.name}] helpful=${k.helpful} harmful=${k.harmful} :: ${k.text}`).join("\n");
}

/** helpful / (helpful + harmful); undefined when both are 0. */
export function trustRatio(entry: Pick<PlaybookEntry, "helpful" | "harmful">): number | undefined {
  const total = entry.helpful + entry.harmful;
  return total === 0 ? undefined : entry.helpful / total;
}

/** The playbook as save_playbook writes it: `last_updated` set to `now` in ISO 8601. */
export function savePlaybook(playbook: Playbook, now: Date): Playbook {
  return { ...playbook, last_updated: now.toISOString() };
}
