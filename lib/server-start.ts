import { firstAdminLink } from "@/lib/auth/bootstrap";
import { installClientIpStamp } from "@/lib/auth/client-ip";
import { installDirectEvents } from "@/lib/http/events-direct";
import { installMethodGuard } from "@/lib/http/method-guard";
import { installUnavailableGate } from "@/lib/http/unavailable-gate";
import { lifecycle } from "@/lib/db/lifecycle";
import { weightSets } from "@/lib/db/weights";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { installRequestTracking, installSignalDrain } from "@/lib/server-drain";
import { currentStore, ensureConstitution } from "@/lib/services/constitution";
import { applyInitOnStart } from "@/lib/services/init";
import { startRecomputeWorker, stopRecomputeWorker } from "@/lib/services/recompute";
import { startReflectionWorker, stopReflectionWorker } from "@/lib/services/reflect";
import { startFitWorker, stopFitWorker } from "@/lib/services/learned";
import { startIdleSessionWorker, stopIdleSessionWorker } from "@/lib/services/idle-sessions";
import { setServerState } from "@/lib/startup";
import { warmIngestPath } from "./server-warm-up";

/**
 * Builds the retrieval index of the version in force and runs one retrieval, so that
 * the first prompt after a start is answered inside the hook's budget.
 */
async function warmRetrieval(): Promise<void> {
  const started = performance.now();
  const [{ store }] = await Promise.all([currentStore(), weightSets.current()]);
  store.retrieveLexical("warm up the retrieval index before the first prompt");
  log.info(`retrieval index ready in ${Math.round(performance.now() - started)} ms`);
}

function printFirstAdminLink(link: string): void {
  console.log(
    [
      "",
      "  Charter has no signed-in admin yet. Open this one-time link to sign in as the first admin:",
      "",
      `    ${link}`,
      "",
      "  It works once and expires in an hour; `charter users create-admin` makes another.",
      "",
    ].join("\n"),
  );
}

/**
 * The one-off writes of a start (CHARTER_INIT_*, the shipped constitution, the first
 * admin and its link), under the start-up lock: instances started together on one
 * database do them one after another, so one of them applies CHARTER_INIT_* and prints
 * the link, and the others find the rows made and say nothing (or where the link went).
 */
async function startUpWrites(): Promise<void> {
  await applyInitOnStart();
  try {
    await ensureConstitution();
  } catch (error) {
    log.error("could not import the shipped constitution", error);
  }
  try {
    const outcome = await firstAdminLink(env().CHARTER_ADMIN_EMAIL);
    if (outcome?.kind === "link") printFirstAdminLink(outcome.link);
    else if (outcome?.kind === "printed-elsewhere")
      log.info(
        `a first-admin sign-in link was printed by another start at ${outcome.at.toISOString()}; \`charter users create-admin\` makes another`,
      );
  } catch (error) {
    log.error("could not prepare the first admin sign-in link", error);
  }
}

/** Work done once per server process, after migrations (which `charter serve` runs first). */
export async function onServerStart(): Promise<void> {
  // Installed first, so it runs last of these, next to Next: the agents' events with a key, answered without the router.
  installDirectEvents();
  // So that no request reaches a rate limit keyed on an address the client chose.
  installClientIpStamp();
  installRequestTracking();
  // Answered before Next.js sees them (it answered both 500): a page while the database is
  // down gets 503 with Retry-After, TRACE gets 405. Installed last, so they run first.
  installUnavailableGate();
  installMethodGuard();
  setServerState("starting");
  // `next dev` keeps its own signal handling (it restarts and cleans up its watchers); production drains.
  if (env().NODE_ENV === "production")
    installSignalDrain(() => {
      stopRecomputeWorker();
      stopReflectionWorker();
      stopFitWorker();
      stopIdleSessionWorker();
    });
  try {
    await lifecycle.serialisedStart(startUpWrites);
  } catch (error) {
    log.error("the start-up writes did not finish (a later start tries again)", error);
  }
  try {
    await warmRetrieval();
  } catch (error) {
    log.error("could not build the retrieval index", error);
  }
  // The routes load on their first request: one real event, sent once the server listens, so an agent's first prompt does not pay for it.
  void warmIngestPath(env().CHARTER_SELF_URL).finally(() => setServerState("ready"));
  startRecomputeWorker();
  startFitWorker();
  startIdleSessionWorker();
  if (env().CHARTER_REFLECT_ON_SESSION_END) startReflectionWorker();
}
