import { existsSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Worker as WorkerThread } from "node:worker_threads";
import { principlesContext, type ConstitutionStore } from "@/lib/constitution";
import { log } from "@/lib/log";
import { REPO_ROOT } from "@/lib/paths";
import {
  brief,
  type PromptRetrieval,
  type RetrievalJob,
  type RetrievalReply,
} from "./retrieval-protocol";

export type { PromptRetrieval };

/**
 * Prompts in one request from which lexical retrieval leaves the event loop. One
 * prompt costs 0.4-1 ms of CPU here, so a batch this size would hold single hook calls
 * for 15-30 ms; below it, handing it to a worker costs more than it saves.
 */
export const POOL_THRESHOLD = 32;
/** In-process retrieval of a large batch (no pool) lets other requests run after this many prompts. */
const YIELD_EVERY = 16;
/** A worker that has not answered by then is ended and its prompts retrieved in-process. */
const JOB_TIMEOUT_MS = 60_000;
/** After this many workers failed, the pool stays off and retrieval runs in-process. */
const MAX_FAILURES = 3;

/** The worker entry, bundled at install by scripts/build-retrieval-worker.mjs. */
export const WORKER_FILE = path.join(REPO_ROOT, "dist", "retrieval-worker.mjs");
const SOURCES_FILE = path.join(REPO_ROOT, "dist", "retrieval-worker.sources.json");

type Pending = {
  resolve: (principles: PromptRetrieval[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
};
type Slot = { worker: WorkerThread; sentVersion: number | null; pending: Map<number, Pending> };
type PoolState = { slots: Slot[]; failures: number; off: string | null; nextId: number };

// One pool per process: Next.js evaluates modules once per bundle layer.
const holder = globalThis as unknown as { __charterRetrievalPool?: PoolState };

/**
 * One worker per core but one, so that the event loop keeps a core for single hook
 * calls while the workers take a large batch.
 */
export function poolSize(): number {
  return Math.max(1, Math.min(8, os.availableParallelism() - 1));
}

/** Why the bundle cannot be used (missing, or older than a source it holds), or null. */
function bundleProblem(): string | null {
  if (!existsSync(WORKER_FILE)) return `${path.relative(REPO_ROOT, WORKER_FILE)} is missing`;
  try {
    const built = statSync(WORKER_FILE).mtimeMs;
    const sources = JSON.parse(readFileSync(SOURCES_FILE, "utf8")) as string[];
    const newer = sources.find((s) => statSync(path.join(REPO_ROOT, s)).mtimeMs > built);
    return newer ? `${newer} changed after the worker was built` : null;
  } catch (error) {
    return `its source list cannot be read (${error instanceof Error ? error.message : String(error)})`;
  }
}

function state(): PoolState {
  if (!holder.__charterRetrievalPool) {
    const problem = bundleProblem();
    if (problem)
      log.warn(
        `retrieval runs in-process: ${problem} (node scripts/build-retrieval-worker.mjs builds it)`,
      );
    holder.__charterRetrievalPool = { slots: [], failures: 0, off: problem, nextId: 1 };
  }
  return holder.__charterRetrievalPool;
}

function fail(pool: PoolState, slot: Slot, error: Error): void {
  const index = pool.slots.indexOf(slot);
  if (index < 0) return;
  pool.slots.splice(index, 1);
  for (const p of slot.pending.values()) {
    clearTimeout(p.timer);
    p.reject(error);
  }
  slot.pending.clear();
  void slot.worker.terminate();
  if (++pool.failures >= MAX_FAILURES && !pool.off) {
    pool.off = `${pool.failures} workers failed, the last with: ${error.message}`;
    log.warn(`retrieval runs in-process from now on: ${pool.off}`);
  }
}

/**
 * worker_threads' Worker, taken at run time: the production build's bundler rewrites a
 * `new Worker(file)` it can see into a chunk of its own, which then failed to load
 * ("Cannot find module"), and every large batch was retrieved on the event loop.
 */
const { Worker } = process.getBuiltinModule(
  "node:worker_threads",
) as typeof import("node:worker_threads");

function start(pool: PoolState): Slot | null {
  try {
    const worker = new Worker(WORKER_FILE);
    // Workers never keep the process alive: a server that exits has no retrieval to finish.
    worker.unref();
    const slot: Slot = { worker, sentVersion: null, pending: new Map() };
    worker.on("message", (reply: RetrievalReply) => {
      const job = slot.pending.get(reply.id);
      if (!job) return;
      slot.pending.delete(reply.id);
      clearTimeout(job.timer);
      if ("error" in reply) job.reject(new Error(reply.error));
      else job.resolve(reply.found);
    });
    worker.on("error", (error) => fail(pool, slot, error));
    worker.on("exit", (code) => fail(pool, slot, new Error(`the worker exited (code ${code})`)));
    pool.slots.push(slot);
    return slot;
  } catch (error) {
    pool.failures = MAX_FAILURES;
    pool.off = `a worker could not start: ${error instanceof Error ? error.message : String(error)}`;
    log.warn(`retrieval runs in-process: ${pool.off}`);
    return null;
  }
}

/** The workers, started on first use, up to poolSize(); none when the pool is off. */
function workers(): Slot[] {
  const pool = state();
  if (pool.off) return [];
  while (pool.slots.length < poolSize()) if (!start(pool)) break;
  return pool.slots;
}

function send(
  store: ConstitutionStore,
  versionId: number,
  slot: Slot,
  prompts: string[],
): Promise<PromptRetrieval[]> {
  const pool = state();
  const id = pool.nextId++;
  const job: RetrievalJob = { id, versionId, prompts };
  // Messages are handled in order: a worker has the version of the last job that carried one.
  if (slot.sentVersion !== versionId) {
    job.load = { constitution: store.constitution, config: store.config, learned: store.learned };
    slot.sentVersion = versionId;
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(pool, slot, new Error(`no answer within ${JOB_TIMEOUT_MS} ms`)),
      JOB_TIMEOUT_MS,
    );
    timer.unref();
    slot.pending.set(id, { resolve, reject, timer });
    slot.worker.postMessage(job);
  });
}

/** Lexical retrieval in this thread; a large batch lets other requests run every few prompts. */
async function inProcess(
  store: ConstitutionStore,
  versionId: number,
  prompts: string[],
): Promise<PromptRetrieval[]> {
  const out: PromptRetrieval[] = [];
  for (const [i, prompt] of prompts.entries()) {
    if (i > 0 && i % YIELD_EVERY === 0) await new Promise((r) => setImmediate(r));
    out.push(lexicalRetrieval(store, versionId, prompt));
  }
  return out;
}

/** One prompt's lexical retrieval in this thread, as a worker gives it. */
export function lexicalRetrieval(
  store: ConstitutionStore,
  versionId: number,
  prompt: string,
): PromptRetrieval {
  const { principles } = store.retrieveLexical(prompt);
  return { principles: brief(principles), context: principlesContext(versionId, principles) };
}

/**
 * Each prompt's principles on the lexical path of `store` (the same as
 * `store.retrieveLexical`) and their context text, in the prompts' order. A batch of POOL_THRESHOLD prompts or
 * more is shared among the worker threads, so it does not hold the event loop; a part a
 * worker fails to answer, or every part when the pool cannot start, is retrieved here.
 */
export async function retrieveLexicalMany(
  store: ConstitutionStore,
  versionId: number,
  prompts: string[],
): Promise<PromptRetrieval[]> {
  if (prompts.length < POOL_THRESHOLD) return inProcess(store, versionId, prompts);
  const slots = workers();
  if (slots.length === 0) return inProcess(store, versionId, prompts);
  const size = Math.ceil(prompts.length / slots.length);
  const parts = slots.map((slot, i) => {
    const part = prompts.slice(i * size, (i + 1) * size);
    return part.length === 0
      ? Promise.resolve([])
      : send(store, versionId, slot, part).catch((error: unknown) => {
          log.warn(
            `a retrieval worker failed (${error instanceof Error ? error.message : String(error)}); retrieving in-process`,
          );
          return inProcess(store, versionId, part);
        });
  });
  return (await Promise.all(parts)).flat();
}

/** Whether large batches are retrieved off the event loop, and by how many workers (a bench and a test report it). */
export function poolStatus(): { workers: number; off: string | null } {
  const pool = state();
  return { workers: pool.off ? 0 : poolSize(), off: pool.off };
}

/** Ends the workers (tests; a server exits without it). */
export async function closeRetrievalPool(): Promise<void> {
  const pool = holder.__charterRetrievalPool;
  holder.__charterRetrievalPool = undefined;
  if (!pool) return;
  await Promise.all(
    pool.slots.map((slot) => {
      slot.worker.removeAllListeners("exit");
      for (const p of slot.pending.values()) {
        clearTimeout(p.timer);
        p.reject(new Error("the retrieval pool was closed"));
      }
      return slot.worker.terminate();
    }),
  );
}
