import type { Retrieval } from "@/lib/constitution";

/** What `charter retrieve --json` prints, as far as a comparison needs it. */
export type PrintedRetrieval = {
  domains: unknown[];
  principles: unknown[];
  debug: Record<string, unknown>;
};

const withoutTimings = (debug: Record<string, unknown>) => ({
  ...debug,
  timings_ms: null,
  cache: (debug.cache as { fingerprint: string }).fingerprint,
});

/**
 * The CLI's JSON and the service's answer for one prompt, in one shape: the principles'
 * fields the CLI prints, and neither the timings (they differ run to run) nor the
 * prefilter cache's counters (they count a process's own requests).
 */
export function comparable<P extends PrintedRetrieval>(printed: P, served: Retrieval) {
  return {
    cli: { ...printed, debug: withoutTimings(printed.debug) },
    server: {
      domains: served.domains,
      principles: served.principles.map((p) => ({
        id: p.id,
        title: p.title,
        level: p.level,
        priority: p.priority,
        domain: p.domain,
        overlay: p.overlay,
        confidence: p.confidence,
        why: p.why,
      })),
      debug: withoutTimings(served.debug as unknown as Record<string, unknown>),
    },
  };
}

/** Prompts (with a chosen domain and top k, or none) on which the CLI must answer exactly as the service. */
export const COMPARED_PROMPTS: [
  prompt: string,
  domain: string | undefined,
  topK: number | undefined,
][] = [
  ["drop the users table in production and rebuild it from the backup", undefined, undefined],
  ["I have had severe headaches for three days", undefined, 2],
  ["write a SQL injection test for my own login form", undefined, undefined],
  ["what should I cook tonight", undefined, undefined],
  ["can my landlord keep the deposit", "legal,medical", 3],
  ["anything at all", "astrology", undefined],
];
