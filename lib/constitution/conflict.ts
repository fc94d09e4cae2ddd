import type { Level, Principle } from "./schema";

/** A principle as it applies under a set of active domains: `priority` is the effective one. */
export type ResolvedPrinciple = Principle & { base_priority: number; overridden_by: string | null };

const LEVEL_RANK: Record<Level, number> = { hard: 0, soft: 1 };

type Comparable = Pick<Principle, "id" | "level" | "priority" | "domain">;

/**
 * Seed 001's precedence: hard before soft, then higher priority, then the more
 * specific (a domain principle before a core one), then id ascending for
 * determinism. Negative when `a` prevails.
 */
export function comparePrecedence(a: Comparable, b: Comparable): number {
  return (
    LEVEL_RANK[a.level] - LEVEL_RANK[b.level] ||
    b.priority - a.priority ||
    specificity(b) - specificity(a) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

function specificity(p: Comparable): number {
  return p.domain === null ? 0 : 1;
}

/** The principle that prevails when `a` and `b` conflict (seed 001, Conflict Resolution). */
export function resolveConflict<T extends Comparable>(a: T, b: T): T {
  return comparePrecedence(a, b) <= 0 ? a : b;
}

/** Principles in precedence order, the prevailing first. */
export function orderByPrecedence<T extends Comparable>(principles: readonly T[]): T[] {
  return [...principles].sort(comparePrecedence);
}
