import { changeBus } from "@/lib/db/change-bus";

/** What a verified key resolves to: the caller it acts as, and what its validity depends on. */
export type VerifiedKey<C> = {
  caller: C;
  keyId: string;
  ownerId: string;
  /** When the key expires (ms since the epoch), or null. */
  expiresAt: number | null;
};

/** Keys kept at most; the oldest is dropped beyond it (a bound, not a working-set estimate). */
const MAX_KEYS = 10_000;
/** A kept key is checked again after this long: a bound for writes made outside the repositories. */
const MAX_AGE_MS = 60_000;

type Entry<C> = VerifiedKey<C> & { at: number };

type Store<C> = {
  byHash: Map<string, Entry<C>>;
  byKeyId: Map<string, Set<string>>;
  byOwner: Map<string, Set<string>>;
  loading: Map<string, { generation: number; promise: Promise<VerifiedKey<C> | null> }>;
};

function drop<C>(store: Store<C>, hash: string): void {
  const entry = store.byHash.get(hash);
  if (!entry) return;
  store.byHash.delete(hash);
  store.byKeyId.get(entry.keyId)?.delete(hash);
  if (store.byKeyId.get(entry.keyId)?.size === 0) store.byKeyId.delete(entry.keyId);
  store.byOwner.get(entry.ownerId)?.delete(hash);
  if (store.byOwner.get(entry.ownerId)?.size === 0) store.byOwner.delete(entry.ownerId);
}

function index(map: Map<string, Set<string>>, key: string, hash: string): void {
  const set = map.get(key) ?? new Set<string>();
  set.add(hash);
  map.set(key, set);
}

function store<C>(): Store<C> {
  return changeBus.shared("key-cache", () => {
    const created: Store<C> = {
      byHash: new Map(),
      byKeyId: new Map(),
      byOwner: new Map(),
      loading: new Map(),
    };
    changeBus.subscribe((change) => {
      const clearAll = () => {
        created.byHash.clear();
        created.byKeyId.clear();
        created.byOwner.clear();
        created.loading.clear();
      };
      if (change === null) return clearAll();
      // Loads in flight began before this change: they answer, but are not kept (the generation moved).
      created.loading.clear();
      const by =
        change.topic === "api_key"
          ? created.byKeyId
          : change.topic === "user"
            ? created.byOwner
            : null;
      if (!by) return;
      if (change.id === undefined) return clearAll();
      for (const hash of [...(by.get(change.id) ?? [])]) drop(created, hash);
    });
    return created;
  });
}

/**
 * Verified API keys in memory, by the hash of the secret (the secret itself is never
 * kept), also indexed by key id and by owner id so that a revoked key, a changed key or
 * a changed owner (role, block, removal) is dropped the moment the change bus announces
 * it, on every instance. Only verified keys are kept: a refusal is asked again each time.
 * While the bus cannot vouch for its caches (its listener is not connected) every
 * request is checked against the database.
 */
export const keyCache = {
  /**
   * The verified key for `hash`: from memory, or by `verify` (one database read, shared by
   * concurrent requests for the same key). `verify` answers null for a refused key and
   * throws when the check could not finish; neither is kept.
   */
  async resolve<C>(
    hash: string,
    verify: () => Promise<VerifiedKey<C> | null>,
  ): Promise<VerifiedKey<C> | null> {
    const generation = changeBus.snapshot();
    if (generation === null) return verify();
    const s = store<C>();
    const now = Date.now();
    const kept = s.byHash.get(hash);
    if (kept) {
      const expired = kept.expiresAt !== null && kept.expiresAt <= now;
      if (!expired && now - kept.at < MAX_AGE_MS) return kept;
      drop(s, hash);
      if (expired) return null;
    }
    const inFlight = s.loading.get(hash);
    if (inFlight?.generation === generation) return inFlight.promise;
    const promise = verify().finally(() => {
      if (s.loading.get(hash)?.promise === promise) s.loading.delete(hash);
    });
    s.loading.set(hash, { generation, promise });
    const verified = await promise;
    if (verified && changeBus.snapshot() === generation && !s.byHash.has(hash)) {
      if (s.byHash.size >= MAX_KEYS) {
        const oldest = s.byHash.keys().next().value;
        if (oldest !== undefined) drop(s, oldest);
      }
      s.byHash.set(hash, { ...verified, at: now });
      index(s.byKeyId, verified.keyId, hash);
      index(s.byOwner, verified.ownerId, hash);
    }
    return verified;
  },

  /** How many keys are kept (for tests). */
  size(): number {
    return store().byHash.size;
  },
} as const;
