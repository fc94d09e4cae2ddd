import type { Level, Principle } from "./schema";

/**
 * A principle as it applies under a set of active domains: `priority` is the effective
 * one; `overlay` is the overlay that brings it into force, null for a core principle
 * (which is in force under every domain, whatever its `domain` label says).
 */
export type ResolvedPrinciple = Principle & {
  base_priority: number;
  overridden_by: string | null;
  overlay: string | null;
};

const LEVEL_RANK: Record<Level, number> = { hard: 0, soft: 1 };

type Comparable = Pick<Principle, "id" | "level" | "priority" | "domain"> &
  Partial<Pick<Principle, "examples_allow" | "examples_deny" | "keywords" | "rule">>;

/**
 * The constitution-store spec's precedence: hard before soft, then higher priority, then the more
 * specific (specificity below), then id ascending for determinism. Negative when `a` prevails.
 */
export function comparePrecedence(a: Comparable, b: Comparable): number {
  return (
    LEVEL_RANK[a.level] - LEVEL_RANK[b.level] ||
    b.priority - a.priority ||
    specificity(b) - specificity(a) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** moralstack keeps at most this many examples of each kind when it loads a principle; more do not add specificity. */
export const SPECIFICITY_EXAMPLES = 2;

/**
 * How specific a principle is, as moralstack scores it (helpers.py `_specificity_score`):
 * 10 for a domain (any `domain`, a core principle's label included), 0.5 per forbidden
 * and 0.3 per allowed example (two of each at most), 0.2 per keyword, and the rule's
 * length / 100 up to 2. Tenths are kept exact (scaled to whole numbers) so ties are ties.
 */
export function specificity(p: Comparable): number {
  const deny = Math.min(p.examples_deny?.length ?? 0, SPECIFICITY_EXAMPLES);
  const allow = Math.min(p.examples_allow?.length ?? 0, SPECIFICITY_EXAMPLES);
  const ruleLength = p.rule === undefined ? 0 : [...p.rule].length;
  return (
    (p.domain === null ? 0 : 10_000) +
    deny * 500 +
    allow * 300 +
    (p.keywords?.length ?? 0) * 200 +
    Math.min(ruleLength * 10, 2_000)
  );
}

/** The principle that prevails when `a` and `b` conflict (docs/spec/constitution-store.md, Conflict Resolution). */
export function resolveConflict<T extends Comparable>(a: T, b: T): T {
  return comparePrecedence(a, b) <= 0 ? a : b;
}

/** Principles in precedence order, the prevailing first. */
export function orderByPrecedence<T extends Comparable>(principles: readonly T[]): T[] {
  return [...principles].sort(comparePrecedence);
}
