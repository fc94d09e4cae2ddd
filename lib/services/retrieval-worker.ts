/**
 * A retrieval worker thread (lib/services/retrieval-pool.ts): lexical retrieval over the
 * pure engine, off the server's event loop. Bundled at install into
 * dist/retrieval-worker.mjs (scripts/build-retrieval-worker.mjs), so it runs in plain
 * Node inside the Next.js server. It keeps the store of the latest version it was sent.
 */
import { parentPort } from "node:worker_threads";
import { principlesContext } from "@/lib/constitution/selection";
import { ConstitutionStore } from "@/lib/constitution/store";
import { brief, type RetrievalJob, type RetrievalReply } from "./retrieval-protocol";

let current: { versionId: number; store: ConstitutionStore } | null = null;

parentPort?.on("message", (job: RetrievalJob) => {
  let reply: RetrievalReply;
  try {
    if (job.load)
      current = {
        versionId: job.versionId,
        store: new ConstitutionStore(job.load.constitution, job.load.config, {
          learned: job.load.learned,
        }),
      };
    if (!current || current.versionId !== job.versionId)
      throw new Error(`the worker holds no store for version ${job.versionId}`);
    const store = current.store;
    reply = {
      id: job.id,
      found: job.prompts.map((prompt) => {
        const { principles } = store.retrieveLexical(prompt);
        return {
          principles: brief(principles),
          context: principlesContext(job.versionId, principles),
        };
      }),
    };
  } catch (error) {
    reply = { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
