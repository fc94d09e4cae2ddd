import type { Client as PgClient } from "pg";
import { log } from "@/lib/log";
import { db, dbKind, dbTarget } from "./client";
import type { PrismaClient } from "./generated/prisma/client";
import { inTransaction, type Tx } from "./transaction";

/**
 * What the in-memory caches (verified API keys, the constitution head, the weight set in
 * force) depend on. A change names a topic and, when it concerns one row, its id.
 */
export type Topic = "api_key" | "user" | "constitution" | "constitution_model" | "weights";
export type Change = { topic: Topic; id?: string };
/** A change, or null: "anything may have changed" (the listener was lost or is back). */
export type Listener = (change: Change | null) => void;

/** The PostgreSQL channel every instance listens on. */
export const CHANGE_CHANNEL = "charter_changes";

/** Reconnect delays of the listener: from the first to the longest. */
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;
/** The listener proves its connection this often; a silent connection is replaced. */
const HEARTBEAT_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 3_000;
const CONNECT_TIMEOUT_MS = 5_000;

type State = {
  /** The Prisma client the bus serves: another one (switchDatabase, closeDb) starts everything afresh. */
  client: PrismaClient | null;
  /** Caches may be served: always on PGlite; on PostgreSQL while the listener is connected. */
  trusted: boolean;
  /** Bumped by every change and every change of trust: a read that began before it must not fill a cache. */
  generation: number;
  listeners: Set<Listener>;
  pg: PgClient | null;
  retry: ReturnType<typeof setTimeout> | null;
  heartbeat: ReturnType<typeof setInterval> | null;
  backoffMs: number;
  /** Whether the current outage of the listener was logged already (one line per outage). */
  outageLogged: boolean;
  /** Tells this instance's own notifications apart: it delivered them already, at commit. */
  instance: string;
  /** Named caches shared by every copy of the modules that use them (Next.js bundles modules more than once). */
  registry: Map<string, unknown>;
};

const holder = globalThis as unknown as { __charterChangeBus?: State };

function state(): State {
  holder.__charterChangeBus ??= {
    client: null,
    trusted: false,
    generation: 0,
    listeners: new Set(),
    pg: null,
    retry: null,
    heartbeat: null,
    backoffMs: RECONNECT_FIRST_MS,
    outageLogged: false,
    instance: `${process.pid}-${Math.random().toString(36).slice(2, 10)}`,
    registry: new Map(),
  };
  return holder.__charterChangeBus;
}

function deliver(change: Change | null): void {
  const s = state();
  s.generation++;
  for (const listener of s.listeners) {
    try {
      listener(change);
    } catch (error) {
      log.error("change bus: a cache failed to take a change", error);
    }
  }
}

function setTrusted(trusted: boolean): void {
  const s = state();
  // Whatever was kept may have missed a change: dropped both when trust is lost and when it is regained.
  s.trusted = trusted;
  deliver(null);
}

function stopListener(s: State): void {
  if (s.retry) clearTimeout(s.retry);
  if (s.heartbeat) clearInterval(s.heartbeat);
  s.retry = null;
  s.heartbeat = null;
  const client = s.pg;
  s.pg = null;
  if (client) void client.end().catch(() => undefined);
}

function lost(s: State, client: PgClient, reason: string): void {
  if (s.pg !== client) return;
  stopListener(s);
  if (s.trusted) setTrusted(false);
  if (!s.outageLogged) {
    s.outageLogged = true;
    log.warn(
      `change bus: the listener is not connected (${reason}); caches are bypassed until it is back`,
    );
  }
  const delay = s.backoffMs;
  s.backoffMs = Math.min(RECONNECT_MAX_MS, s.backoffMs * 2);
  s.retry = setTimeout(() => void connect(s, url()), delay);
  s.retry.unref();
}

function url(): string {
  const target = dbTarget();
  return target.kind === "postgres" ? target.url : "";
}

/** Opens the dedicated LISTEN connection; caches are trusted only once LISTEN has taken effect. */
async function connect(s: State, connectionString: string): Promise<void> {
  s.retry = null;
  const { default: pg } = await import("pg");
  const client = new pg.Client({
    connectionString,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    application_name: `charter-change-bus ${process.pid}`,
  });
  s.pg = client;
  // The listener never keeps a process alive (a CLI command exits when its work is done).
  (
    client as unknown as { connection: { stream: { unref?: () => void } } }
  ).connection.stream.unref?.();
  client.on("error", (error: Error) => lost(s, client, error.message));
  client.on("end", () => lost(s, client, "connection ended"));
  client.on("notification", (message) => {
    if (message.channel !== CHANGE_CHANNEL || s.pg !== client) return;
    const parsed = parseNotification(message.payload);
    if (parsed?.from === s.instance) return;
    deliver(parsed?.change ?? null);
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${CHANGE_CHANNEL}`);
  } catch (error) {
    lost(s, client, error instanceof Error ? error.message : String(error));
    return;
  }
  if (s.pg !== client) return;
  s.backoffMs = RECONNECT_FIRST_MS;
  if (s.outageLogged) log.info("change bus: the listener is connected again; caches are in use");
  s.outageLogged = false;
  setTrusted(true);
  s.heartbeat = setInterval(() => void heartbeat(s, client), HEARTBEAT_MS);
  s.heartbeat.unref();
}

async function heartbeat(s: State, client: PgClient): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("no answer to the heartbeat")), HEARTBEAT_TIMEOUT_MS);
    timer.unref();
  });
  try {
    await Promise.race([client.query("SELECT 1"), timeout]);
  } catch (error) {
    lost(s, client, error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
  }
}

function parseNotification(payload: string | undefined): { change: Change; from?: string } | null {
  try {
    const value = JSON.parse(payload ?? "") as { topic?: unknown; id?: unknown; from?: unknown };
    if (typeof value.topic !== "string") return null;
    return {
      change: {
        topic: value.topic as Topic,
        ...(typeof value.id === "string" ? { id: value.id } : {}),
      },
      from: typeof value.from === "string" ? value.from : undefined,
    };
  } catch {
    return null;
  }
}

/** Follows the process's database: a new client (or the first) drops every cache and (re)starts listening. */
function follow(): State {
  const s = state();
  const client = db();
  if (s.client === client) return s;
  stopListener(s);
  s.client = client;
  s.backoffMs = RECONNECT_FIRST_MS;
  // One process per PGlite directory (its lock): every writer is in this process and announces here.
  if (dbKind() === "embedded") {
    setTrusted(true);
    return s;
  }
  if (s.trusted) setTrusted(false);
  void connect(s, url());
  return s;
}

async function notify(tx: Tx | PrismaClient, change: Change): Promise<void> {
  if (dbKind() !== "postgres") return;
  const payload = JSON.stringify({ ...change, from: state().instance });
  await tx.$executeRaw`SELECT pg_notify(${CHANGE_CHANNEL}, ${payload})`;
}

/**
 * Changes that in-memory caches depend on, announced to every instance at the moment
 * they commit: on PostgreSQL by `pg_notify` inside the writer's transaction (delivered
 * exactly at commit, never for a rollback) to a dedicated LISTEN connection per
 * instance; on PGlite in-process. The writing instance takes its own change right after
 * its commit, before the writer returns. While the listener is not connected (start,
 * a drop, reconnecting) `trusted()` is false and caches are bypassed, and every change
 * of trust drops them, so correctness never depends on a notification arriving.
 */
export const changeBus = {
  /** True when caches may be served now; starts following the database on first use. */
  trusted(): boolean {
    return follow().trusted;
  },

  /** The current generation: a cache fills only if it is unchanged since its read began. */
  generation(): number {
    return state().generation;
  },

  /** The generation to fill a cache under, or null when caches must not be used now. */
  snapshot(): number | null {
    const s = follow();
    return s.trusted ? s.generation : null;
  },

  subscribe(listener: Listener): () => void {
    state().listeners.add(listener);
    return () => state().listeners.delete(listener);
  },

  /**
   * Runs `work` in one transaction; each `announce` inside it is published with the
   * transaction and taken by this instance right after the commit (a rollback announces nothing).
   */
  async transaction<T>(
    work: (tx: Tx, announce: (change: Change) => Promise<void>) => Promise<T>,
    options?: { timeout?: number; maxWait?: number },
  ): Promise<T> {
    const changes: Change[] = [];
    const result = await inTransaction(async (tx) => {
      changes.length = 0;
      return work(tx, async (change) => {
        changes.push(change);
        await notify(tx, change);
      });
    }, options);
    for (const change of changes) deliver(change);
    return result;
  },

  /** Announces a change a single statement already committed (a write made outside a transaction of ours). */
  async announce(change: Change): Promise<void> {
    try {
      await notify(db(), change);
    } finally {
      deliver(change);
    }
  },

  /** A cache shared by every copy of its module in this process, made once by `create`. */
  shared<T>(name: string, create: () => T): T {
    const registry = state().registry;
    if (!registry.has(name)) registry.set(name, create());
    return registry.get(name) as T;
  },
} as const;

/**
 * One value read from the database, kept until a change to one of `topics` (or `maxAgeMs`,
 * a bound for writes made outside the repositories). Concurrent reads share one load; a
 * load that began before a change is answered but not kept.
 */
export function memo<T>(
  name: string,
  topics: readonly Topic[],
  load: () => Promise<T>,
  options: { maxAgeMs?: number } = {},
): { get(): Promise<T> } {
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  return changeBus.shared(`memo:${name}`, () => {
    let kept: { value: T; at: number } | null = null;
    let loading: { generation: number; promise: Promise<T> } | null = null;
    changeBus.subscribe((change) => {
      if (change === null || topics.includes(change.topic)) {
        kept = null;
        loading = null;
      }
    });
    return {
      get(): Promise<T> {
        const generation = changeBus.snapshot();
        if (generation === null) return load();
        if (kept && Date.now() - kept.at < maxAgeMs) return Promise.resolve(kept.value);
        if (loading?.generation === generation) return loading.promise;
        const started = Date.now();
        const promise = load().then(
          (value) => {
            if (changeBus.snapshot() === generation) kept = { value, at: started };
            if (loading?.promise === promise) loading = null;
            return value;
          },
          (error: unknown) => {
            if (loading?.promise === promise) loading = null;
            throw error;
          },
        );
        loading = { generation, promise };
        return promise;
      },
    };
  });
}
