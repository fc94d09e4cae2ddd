/** Orchestration events the prefilter cache emits (docs/spec/constitution-store.md). */
export const CACHE_EVENTS = {
  hit: "DOMAIN_PREFILTER_CACHE_HIT",
  miss: "DOMAIN_PREFILTER_CACHE_MISS",
  invalidated: "DOMAIN_PREFILTER_CACHE_INVALIDATED",
} as const;

export type CacheEventType = (typeof CACHE_EVENTS)[keyof typeof CACHE_EVENTS];
export type OrchestrationEvent = {
  type: CacheEventType;
  run_id?: string;
  request_id?: string;
  fingerprint: string;
  detail?: Record<string, unknown>;
};
export type RequestContext = { runId?: string; requestId?: string };

/**
 * The keyword map's canonical fingerprint: sorted domains, each with its sorted,
 * de-duplicated, lower-cased keywords (docs/spec/constitution-store.md), hashed (FNV-1a 64). Identical maps
 * in any key or keyword order give the same fingerprint.
 */
export function keywordFingerprint(map: Readonly<Record<string, readonly string[]>>): string {
  const canonical = Object.keys(map)
    .sort()
    .map((domain) => [
      domain,
      [...new Set((map[domain] ?? []).map((k) => k.trim().toLowerCase()))].sort(),
    ]);
  return fnv1a64(JSON.stringify(canonical));
}

/**
 * 64-bit FNV-1a over UTF-16 code units, in two 32-bit halves: BigInt arithmetic per
 * character made this a tenth of a short `charter retrieve`. The multiply by the FNV
 * prime (2^40 + 0x1b3) is `h * 0x1b3 + (h << 40)`; every intermediate stays below 2^53.
 */
function fnv1a64(text: string): string {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (let i = 0; i < text.length; i++) {
    lo = (lo ^ text.charCodeAt(i)) >>> 0;
    const low = lo * 0x1b3;
    hi = (hi * 0x1b3 + Math.floor(low / 0x1_0000_0000) + ((lo << 8) >>> 0)) >>> 0;
    lo = low >>> 0;
  }
  return hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
}

/**
 * The prefilter's result cache. `setDomainKeywords` is idempotent: the cache is
 * cleared only when the effective keyword map changes. Hits, misses and
 * invalidations are reported as orchestration events when a run or request id is
 * given, as the seed records them only with a persistence context.
 */
export class PrefilterCache<V> {
  private entries = new Map<string, V>();
  private fingerprint = "";
  readonly counts = { hits: 0, misses: 0, invalidations: 0 };

  constructor(
    private readonly capacity: number,
    private readonly emit: (event: OrchestrationEvent) => void = () => undefined,
  ) {}

  /** Sets the keyword map; returns true when it changed and the cache was cleared. */
  setDomainKeywords(
    map: Readonly<Record<string, readonly string[]>>,
    ctx: RequestContext = {},
  ): boolean {
    const next = keywordFingerprint(map);
    if (next === this.fingerprint) return false;
    const hadMap = this.fingerprint !== "";
    const dropped = this.entries.size;
    this.entries.clear();
    this.fingerprint = next;
    if (hadMap) {
      this.counts.invalidations++;
      this.report(CACHE_EVENTS.invalidated, ctx, { dropped });
    }
    return true;
  }

  get(key: string, ctx: RequestContext = {}): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) {
      this.counts.misses++;
      this.report(CACHE_EVENTS.miss, ctx);
      return undefined;
    }
    // Re-insert to keep the most recently used last.
    this.entries.delete(key);
    this.entries.set(key, value);
    this.counts.hits++;
    this.report(CACHE_EVENTS.hit, ctx);
    return value;
  }

  set(key: string, value: V): void {
    if (this.capacity === 0) return;
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity)
      this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }

  get currentFingerprint(): string {
    return this.fingerprint;
  }

  private report(
    type: CacheEventType,
    ctx: RequestContext,
    detail?: Record<string, unknown>,
  ): void {
    if (!ctx.runId && !ctx.requestId) return;
    this.emit({
      type,
      fingerprint: this.fingerprint,
      ...(ctx.runId ? { run_id: ctx.runId } : {}),
      ...(ctx.requestId ? { request_id: ctx.requestId } : {}),
      ...(detail ? { detail } : {}),
    });
  }
}
