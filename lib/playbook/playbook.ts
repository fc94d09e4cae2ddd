import { formatKeypointName, highestKptNumber } from "./names";
import type { ExtractionResult, Playbook, PlaybookEntry } from "./schema";

/** The playbook spec's pruning floor: a key point needs at least this many harmful ratings to be pruned (INV-SCORE-003). */
export const PRUNE_HARMFUL_FLOOR = 3;

/** The playbook spec's prune rule: `harmful >= 3 and harmful > helpful`. */
export function shouldPrune(entry: Pick<PlaybookEntry, "helpful" | "harmful">): boolean {
  return entry.harmful >= PRUNE_HARMFUL_FLOOR && entry.harmful > entry.helpful;
}

/**
 * A top-level field Charter adds to a file when a prune removes its highest `kpt_`
 * name: the highest number ever given, so that name is not given again (the ACE fork
 * keeps unknown top-level fields, and ignores this one).
 */
export const HIGH_WATER_FIELD = "kpt_high_water";

function highWater(playbook: Playbook): bigint {
  const value = playbook[HIGH_WATER_FIELD];
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? BigInt(value) : 0n;
}

export type PruneMode = "auto" | "approval";
export type UpdateResult = {
  playbook: Playbook;
  added: string[];
  pruned: PlaybookEntry[];
  candidates: PlaybookEntry[];
  warnings: string[];
};

/** A text cut for a warning. */
export function quoteText(text: string, max = 60): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max - 1)}…` : text);
}

/**
 * The playbook spec's update_playbook_data as the ACE fork does it: new key points with zero
 * counters, named highest `kpt_` number + 1 (never a lower free number; Charter also
 * remembers a pruned highest name in `kpt_high_water`, so it is never given again); a new text
 * equal to an existing one (or one added earlier in the call) is skipped; helpful and
 * harmful ratings increment, neutral ones, unknown ratings and unknown names change
 * nothing; then the prune rule. New points are never pruned in the same call (they
 * start at harmful 0). In `approval` mode nothing is removed: entries meeting the rule
 * are returned as candidates. Every skipped item is named in `warnings` (after the
 * extraction's own). Other fields of entries and of the playbook are kept.
 */
export function updatePlaybookData(
  playbook: Playbook,
  extraction: ExtractionResult,
  mode: PruneMode = "auto",
): UpdateResult {
  const warnings = [...(extraction.warnings ?? [])];
  const key_points = playbook.key_points.map((k) => ({ ...k }));
  const names = new Set(key_points.map((k) => k.name));
  const texts = new Map(key_points.map((k) => [k.text.trim(), k.name]));
  const added: string[] = [];
  let highest = highestKptNumber(names);
  if (highWater(playbook) > highest) highest = highWater(playbook);
  for (const given of extraction.new_key_points) {
    const text = given.trim();
    if (text === "") {
      warnings.push("an empty new key point was skipped");
      continue;
    }
    const same = texts.get(text);
    if (same !== undefined) {
      warnings.push(`the new key point ${quoteText(text)} has the same text as ${same}: skipped`);
      continue;
    }
    highest++;
    const name = formatKeypointName(highest);
    names.add(name);
    texts.set(text, name);
    key_points.push({ name, text, helpful: 0, harmful: 0 });
    added.push(name);
  }
  const byName = new Map(key_points.map((k) => [k.name, k]));
  for (const { name, rating } of extraction.evaluations) {
    const entry = byName.get(name);
    if (!entry) warnings.push(`a rating of ${name}, which is not in the playbook, was ignored`);
    else if (rating === "helpful") entry.helpful++;
    else if (rating === "harmful") entry.harmful++;
    else if (rating !== "neutral")
      warnings.push(
        `the rating ${JSON.stringify(rating)} of ${name} is not helpful, harmful or neutral: no change`,
      );
  }
  const meets = key_points.filter((k) => shouldPrune(k));
  if (mode === "approval")
    return {
      playbook: { ...playbook, key_points },
      added,
      pruned: [],
      candidates: meets,
      warnings,
    };
  const prunedNames = new Set(meets.map((k) => k.name));
  const kept = key_points.filter((k) => !prunedNames.has(k.name));
  const mark =
    highestKptNumber(kept.map((k) => k.name)) < highest
      ? { [HIGH_WATER_FIELD]: Number(highest) }
      : {};
  return {
    playbook: { ...playbook, ...mark, key_points: kept },
    added,
    pruned: meets,
    candidates: [],
    warnings,
  };
}

/** The playbook spec's formatted output: `[name] helpful=N harmful=N :: text`, one per line. */
export function formatPlaybook(
  entries: readonly Pick<PlaybookEntry, "name" | "text" | "helpful" | "harmful">[],
): string {
  return entries
    .map((k) => `[${k.name}] helpful=${k.helpful} harmful=${k.harmful} :: ${k.text}`)
    .join("\n");
}

/** helpful / (helpful + harmful); undefined when both are 0. */
export function trustRatio(entry: Pick<PlaybookEntry, "helpful" | "harmful">): number | undefined {
  const total = entry.helpful + entry.harmful;
  return total === 0 ? undefined : entry.helpful / total;
}

/** The playbook as save_playbook writes it: `last_updated` set to `now` in ISO 8601 (UTC); every other field kept. */
export function savePlaybook(playbook: Playbook, now: Date): Playbook {
  return { ...playbook, last_updated: now.toISOString() };
}
