import { orderByPrecedence, type ResolvedPrinciple } from "./conflict";
import {
  differences,
  OVERLAYS_DIR,
  type Constitution,
  type Overlay,
  type Principle,
} from "./schema";

/**
 * Thrown when domains chosen together define one principle id differently (two overlays
 * that moralstack would never activate at once): which definition applies is the
 * caller's choice, so neither is picked silently.
 */
export class ConflictingDefinitionError extends Error {
  constructor(
    readonly id: string,
    readonly locations: [string, string],
  ) {
    super(
      `"${id}" is defined differently at ${locations[0]} and ${locations[1]}: choose one of these domains, or make the definitions the same.`,
    );
    this.name = "ConflictingDefinitionError";
  }
}

export type ResolveOptions = {
  /**
   * How sure detection is of each domain. Given, the domains were detected (an agent's
   * prompt): an id defined differently by two of them takes the definition of the domain
   * detected with the higher confidence (ties: the domain first by name) and a warning
   * says so. Absent, the domains were chosen and such an id throws ConflictingDefinitionError.
   */
  confidence?: ReadonlyMap<string, number>;
};

/** The principles in force, and what was set aside on the way (unknown or excluded domains, a definition not used). */
export type Resolution = { principles: ResolvedPrinciple[]; warnings: string[] };

/** Where an overlay defines a principle: its `file:line:column`, or its file when it was built in code. */
function definedAt(overlay: Overlay, id: string): string {
  return overlay.defined_at?.[id] ?? `${OVERLAYS_DIR}/${overlay.domain}.yaml`;
}

/**
 * The principles in force under the given domains (docs/spec/constitution-store.md, get_constitution): core
 * principles plus each active overlay's additional principles, with the overlays'
 * priority overrides applied (the highest override wins when two active overlays
 * override one principle), in precedence order. A domain with no overlay adds nothing
 * (moralstack falls back to core the same way) and an excluded overlay is never applied;
 * each gives a warning. `overlay` says which overlay brings a principle in (null: core).
 */
export function resolveConstitution(
  constitution: Constitution,
  domains: string | readonly string[] | null = [],
  options: ResolveOptions = {},
): Resolution {
  const warnings: string[] = [];
  const asked = [
    ...new Set(domains === null ? [] : typeof domains === "string" ? [domains] : domains),
  ];
  const overlays: Overlay[] = [];
  for (const d of asked) {
    const overlay = constitution.overlays[d];
    if (!overlay)
      warnings.push(`No overlay for the domain "${d}": only the core principles apply to it.`);
    else if (overlay.excluded) warnings.push(`The ${d} overlay is excluded: it is never applied.`);
    else overlays.push(overlay);
  }
  const { confidence } = options;
  // Preference among active overlays: detected with higher confidence first, then by name.
  const rank = (d: string) => confidence?.get(d) ?? 0;
  overlays.sort((a, b) => rank(b.domain) - rank(a.domain) || a.domain.localeCompare(b.domain));

  const overrides = new Map<string, { priority: number; domain: string }>();
  for (const overlay of overlays) {
    for (const [id, priority] of Object.entries(overlay.priority_overrides)) {
      const current = overrides.get(id);
      // The highest override wins; on a tie, the domain first by name, so the order of `domains` never matters.
      if (
        !current ||
        priority > current.priority ||
        (priority === current.priority && overlay.domain < current.domain)
      )
        overrides.set(id, { priority, domain: overlay.domain });
    }
  }

  const inForce: { principle: Principle; overlay: string | null }[] = constitution.core.map(
    (principle) => ({ principle, overlay: null }),
  );
  const taken = new Map<string, Overlay>();
  for (const overlay of overlays) {
    for (const principle of overlay.additional_principles) {
      const first = taken.get(principle.id);
      if (!first) {
        taken.set(principle.id, overlay);
        inForce.push({ principle, overlay: overlay.domain });
        continue;
      }
      const own = first.additional_principles.find((p) => p.id === principle.id)!;
      if (differences(own, principle).length === 0) continue;
      const locations: [string, string] = [
        definedAt(first, principle.id),
        definedAt(overlay, principle.id),
      ];
      if (!confidence) throw new ConflictingDefinitionError(principle.id, locations);
      const why =
        rank(first.domain) > rank(overlay.domain)
          ? `detected with higher confidence (${rank(first.domain)} over ${rank(overlay.domain)})`
          : "first by name on equal confidence";
      warnings.push(
        `"${principle.id}" is defined differently at ${locations[0]} and ${locations[1]}: used the ${first.domain} definition, ${why}.`,
      );
    }
  }
  const principles = orderByPrecedence(
    inForce.map(({ principle: p, overlay }) => {
      const override = overrides.get(p.id);
      return {
        ...p,
        overlay,
        base_priority: p.priority,
        priority: override?.priority ?? p.priority,
        overridden_by: override?.domain ?? null,
      };
    }),
  );
  return { principles, warnings };
}

/**
 * The principles in force under domains a person chose (CLI `--domain`, a retrieval's
 * domain parameter): resolveConstitution without its warnings; throws
 * ConflictingDefinitionError when two of the domains define one id differently.
 */
export function getConstitution(
  constitution: Constitution,
  domains: string | readonly string[] | null = [],
): ResolvedPrinciple[] {
  return resolveConstitution(constitution, domains).principles;
}

/**
 * Every principle of the constitution, core and all overlays, at base priority, each id
 * once: an id defined in several overlays is listed with the first overlay's definition
 * by name (see allDefinitions for all of them). Per-principle stats are keyed by id.
 */
export function allPrinciples(constitution: Constitution): Principle[] {
  const seen = new Set<string>();
  return allDefinitions(constitution).filter((p) => !seen.has(p.id) && seen.add(p.id));
}

/** Every definition of every principle: core, then each overlay's by domain name; an id defined in two overlays appears twice. */
export function allDefinitions(constitution: Constitution): Principle[] {
  const overlays = Object.values(constitution.overlays).sort((a, b) =>
    a.domain.localeCompare(b.domain),
  );
  return [...constitution.core, ...overlays.flatMap((o) => o.additional_principles)];
}
