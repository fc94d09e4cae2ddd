import { orderByPrecedence, type ResolvedPrinciple } from "./conflict";
import type { Constitution } from "./schema";

/** Thrown for a domain the constitution has no overlay for. */
export class UnknownDomainError extends Error {
  constructor(readonly domain: string, known: string[]) {
    super(`No overlay for the domain "${domain}". Known domains: ${known.join(", ")}.`);
    this.name = "UnknownDomainError";
  }
}

/**
 * The principles in force under the given domains (seed 001, get_constitution):
 * core principles plus each active overlay's additional principles, with the
 * overlays' priority overrides applied (the highest override wins when two active
 * overlays override one principle), in precedence order. Excluded overlays are
 * never applied.
 */
export function getConstitution(constitution: Constitution, domains: string | readonly string[] | null = []): ResolvedPrinciple[] {
  const active = [...new Set(domains === null ? [] : typeof domains === "string" ? [domains] : domains)];
  for (const d of active) if (!constitution.overlays[d]) throw new UnknownDomainError(d, Object.keys(constitution.overlays));
  const overlays = active.map((d) => constitution.overlays[d]!).filter((o) => !o.excluded);

  const overrides = new Map<string, { priority: number; domain: string }>();
  for (const overlay of overlays) {
    for (const [id, priority] of Object.entries(overlay.priority_overrides)) {
      const current = overrides.get(id);
      // The highest override wins; on a tie, the domain first by name, so the order of `domains` never matters.
      if (!current || priority > current.priority || (priority === current.priority && overlay.domain < current.domain)) overrides.set(id, { priority, domain: overlay.domain });
    }
  }
  const principles = [...constitution.core, ...overlays.flatMap((o) => o.additional_principles)];
  return orderByPrecedence(
    principles.map((p) => {
      const override = overrides.get(p.id);
      return { ...p, base_priority: p.priority, priority: override?.priority ?? p.priority, overridden_by: override?.domain ?? null };
    }),
  );
}

/** Every principle of the constitution, core and all overlays, at base priority. */
export function allPrinciples(constitution: Constitution) {
  return [...constitution.core, ...Object.values(constitution.overlays).flatMap((o) => o.additional_principles)];
}
