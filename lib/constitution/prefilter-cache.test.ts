import { describe, expect, it } from "vitest";
import {
  CACHE_EVENTS,
  keywordFingerprint,
  PrefilterCache,
  type OrchestrationEvent,
  type RequestContext,
} from "./prefilter-cache";

type KeywordMap = Record<string, string[]>;

const MAP: KeywordMap = { medical: ["headache", "fever", "dose"], legal: ["landlord", "contract"] };
const SAME_MAP_REORDERED: KeywordMap = {
  legal: ["contract", "landlord"],
  medical: ["dose", "headache", "fever"],
};
const CHANGED_MAP: KeywordMap = {
  medical: ["headache", "fever", "dose"],
  legal: ["landlord", "lawsuit"],
};

function recordingCache(capacity = 8) {
  const events: OrchestrationEvent[] = [];
  const cache = new PrefilterCache<string>(capacity, (e) => events.push(e));
  return { cache, events };
}

describe("keywordFingerprint", () => {
  it.each<[string, KeywordMap, KeywordMap]>([
    ["key order", { a: ["x", "y"], b: ["z"] }, { b: ["z"], a: ["x", "y"] }],
    ["keyword order", { a: ["x", "y", "z"] }, { a: ["z", "x", "y"] }],
    ["keyword case", { a: ["Headache", "FEVER"] }, { a: ["headache", "fever"] }],
    ["duplicate keywords", { a: ["x", "x", "y", "X"] }, { a: ["x", "y"] }],
    ["surrounding spaces", { a: [" x", "y "] }, { a: ["x", "y"] }],
    [
      "all of these at once",
      MAP,
      {
        legal: ["Contract", "landlord", "LANDLORD"],
        medical: ["dose", "Fever", "headache", "headache"],
      },
    ],
  ])("is the same for maps differing only in %s", (_label, a, b) => {
    expect(keywordFingerprint(a)).toBe(keywordFingerprint(b));
  });

  it.each<[string, KeywordMap, KeywordMap]>([
    ["a keyword changes", { a: ["x", "y"] }, { a: ["x", "z"] }],
    ["a keyword is added", { a: ["x"] }, { a: ["x", "y"] }],
    ["a keyword moves to another domain", { a: ["x"], b: [] }, { a: [], b: ["x"] }],
    ["a domain is added with no keywords", { a: ["x"] }, { a: ["x"], b: [] }],
    ["a domain is renamed", { a: ["x"] }, { b: ["x"] }],
    ["two keywords become one with a comma", { a: ["x", "y"] }, { a: ["x,y"] }],
    ["the shipped-like map changes one keyword", MAP, CHANGED_MAP],
  ])("differs when %s", (_label, a, b) => {
    expect(keywordFingerprint(a)).not.toBe(keywordFingerprint(b));
  });

  it("is a 64-bit hex string", () => {
    expect(keywordFingerprint(MAP)).toMatch(/^[0-9a-f]{16}$/);
    expect(keywordFingerprint({})).toMatch(/^[0-9a-f]{16}$/);
  });

  // Values of the reference 64-bit FNV-1a (BigInt arithmetic) over the canonical JSON, computed
  // before the 32-bit rewrite, so fingerprints in recorded orchestration events stay comparable.
  it.each([
    [
      { medical: ["Headache", "fever", "dose"], legal: ["landlord", "lawsuit"] },
      "fb77f1f3978f8b5e",
    ],
    [{}, "09612b07b5ecb5a5"],
    [{ médical: ["Kopfschmerz", "頭痛"] }, "b299a41f82acf0c2"],
  ])("is the 64-bit FNV-1a of the canonical map %j", (map, expected) => {
    expect(keywordFingerprint(map)).toBe(expected);
  });
});

describe("PrefilterCache.setDomainKeywords", () => {
  it("takes the first map without reporting an invalidation", () => {
    const { cache, events } = recordingCache();
    expect(cache.setDomainKeywords(MAP, { runId: "run-1" })).toBe(true);
    expect(cache.currentFingerprint).toBe(keywordFingerprint(MAP));
    expect(events).toEqual([]);
    expect(cache.counts.invalidations).toBe(0);
  });

  it.each<[string, RequestContext]>([
    ["with no ids", {}],
    ["with a run id", { runId: "run-1" }],
    ["with both ids", { runId: "run-1", requestId: "req-1" }],
  ])(
    "is idempotent %s: the same map in another order keeps the cache and emits nothing",
    (_label, ctx) => {
      const { cache, events } = recordingCache();
      cache.setDomainKeywords(MAP);
      cache.set("prompt", "medical");
      expect(cache.setDomainKeywords(SAME_MAP_REORDERED, ctx)).toBe(false);
      expect(cache.setDomainKeywords(MAP, ctx)).toBe(false);
      expect(events).toEqual([]);
      expect(cache.size).toBe(1);
      expect(cache.get("prompt")).toBe("medical");
      expect(cache.counts.invalidations).toBe(0);
    },
  );

  it.each<[string, RequestContext, Partial<OrchestrationEvent>]>([
    [
      "a run and a request id",
      { runId: "run-7", requestId: "req-9" },
      { run_id: "run-7", request_id: "req-9" },
    ],
    ["a run id", { runId: "run-7" }, { run_id: "run-7" }],
    ["a request id", { requestId: "req-9" }, { request_id: "req-9" }],
  ])(
    "clears the cache on a changed map and reports the invalidation with %s",
    (_label, ctx, ids) => {
      const { cache, events } = recordingCache();
      cache.setDomainKeywords(MAP);
      cache.set("p1", "medical");
      cache.set("p2", "legal");
      expect(cache.setDomainKeywords(CHANGED_MAP, ctx)).toBe(true);
      expect(cache.size).toBe(0);
      expect(cache.get("p1")).toBeUndefined();
      expect(cache.counts.invalidations).toBe(1);
      expect(events).toEqual([
        {
          type: CACHE_EVENTS.invalidated,
          fingerprint: keywordFingerprint(CHANGED_MAP),
          detail: { dropped: 2 },
          ...ids,
        },
      ]);
    },
  );

  it("clears the cache on a changed map without ids but reports nothing", () => {
    const { cache, events } = recordingCache();
    cache.setDomainKeywords(MAP);
    cache.set("p1", "medical");
    expect(cache.setDomainKeywords(CHANGED_MAP)).toBe(true);
    expect(cache.size).toBe(0);
    expect(cache.counts.invalidations).toBe(1);
    expect(events).toEqual([]);
  });
});

describe("PrefilterCache.get", () => {
  it.each<[string, RequestContext, Partial<OrchestrationEvent> | null]>([
    ["no ids", {}, null],
    ["empty ids", { runId: "", requestId: "" }, null],
    ["a run id", { runId: "run-1" }, { run_id: "run-1" }],
    ["a request id", { requestId: "req-1" }, { request_id: "req-1" }],
    ["both ids", { runId: "run-1", requestId: "req-1" }, { run_id: "run-1", request_id: "req-1" }],
  ])("with %s reports a miss then a hit only when an id is given", (_label, ctx, ids) => {
    const { cache, events } = recordingCache();
    cache.setDomainKeywords(MAP);
    const fingerprint = keywordFingerprint(MAP);
    expect(cache.get("prompt", ctx)).toBeUndefined();
    cache.set("prompt", "medical");
    expect(cache.get("prompt", ctx)).toBe("medical");
    expect(cache.counts).toEqual({ hits: 1, misses: 1, invalidations: 0 });
    expect(events).toEqual(
      ids
        ? [
            { type: CACHE_EVENTS.miss, fingerprint, ...ids },
            { type: CACHE_EVENTS.hit, fingerprint, ...ids },
          ]
        : [],
    );
  });

  it("never reports on set", () => {
    const { cache, events } = recordingCache();
    cache.set("prompt", "medical");
    expect(events).toEqual([]);
  });
});

describe("PrefilterCache LRU", () => {
  it("drops the least recently used entry past its capacity", () => {
    const { cache } = recordingCache(2);
    cache.set("a", "A");
    cache.set("b", "B");
    expect(cache.get("a")).toBe("A"); // a is now more recent than b
    cache.set("c", "C");
    expect(cache.size).toBe(2);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe("A");
    expect(cache.get("c")).toBe("C");
  });

  it("replacing a key refreshes it without growing", () => {
    const { cache } = recordingCache(2);
    cache.set("a", "A");
    cache.set("b", "B");
    cache.set("a", "A2");
    cache.set("c", "C");
    expect(cache.size).toBe(2);
    expect(cache.get("a")).toBe("A2");
    expect(cache.get("b")).toBeUndefined();
  });

  it.each([
    [0, 0],
    [1, 1],
    [3, 3],
  ])("with capacity %i keeps at most %i entries", (capacity, kept) => {
    const { cache } = recordingCache(capacity);
    for (const key of ["a", "b", "c", "d", "e"]) cache.set(key, key.toUpperCase());
    expect(cache.size).toBe(kept);
    const present = ["a", "b", "c", "d", "e"].filter((k) => cache.get(k) !== undefined);
    expect(present).toEqual(["a", "b", "c", "d", "e"].slice(5 - kept));
  });
});
