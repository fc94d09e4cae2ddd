import { firstAdminLink } from "@/lib/auth/bootstrap";
import { WARM_UP_API_KEY } from "@/lib/auth/caller";
import { installClientIpStamp } from "@/lib/auth/client-ip";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { ensureConstitution } from "@/lib/services/constitution";
import { applyInitOnStart } from "@/lib/services/init";
import { startRecomputeWorker } from "@/lib/services/recompute";
import { startReflectionWorker } from "@/lib/services/reflect";
import { currentStore } from "@/lib/services/constitution";
import { weightSets } from "@/lib/db/weights";
import { markStarting } from "@/lib/startup";

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

/** Work done once per server process, after migrations (which `charter serve` runs first). */
/**
 * Asks the ingestion route once (with a key that is refused: nothing is recorded) as
 * soon as the server answers, so its code, the API-key check and the database pool
 * are ready before /api/health says ok. Gives up after WARM_ROUTES_MS.
 */
async function warmRoutes(selfUrl: string | undefined): Promise<void> {
  if (!selfUrl) return;
  const started = performance.now();
  const body = JSON.stringify({
    type: "UserPromptSubmit",
    id: "charter-warm-up",
    session_id: "charter-warm-up",
    prompt: "warm up",
  });
  while (performance.now() - started < WARM_ROUTES_MS) {
    try {
      await fetch(`${selfUrl}/api/v1/events`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": WARM_UP_API_KEY },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      log.info(`routes ready in ${Math.round(performance.now() - started)} ms`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  log.warn(`could not reach ${selfUrl} to warm the routes; the first prompt may be slow`);
}

const WARM_ROUTES_MS = 30_000;

export async function onServerStart(): Promise<void> {
  // First, so that no request reaches a rate limit keyed on an address the client chose.
  installClientIpStamp();
  markStarting(true);
  await applyInitOnStart();
  try {
    await ensureConstitution();
  } catch (error) {
    log.error("could not import the shipped constitution", error);
  }
  try {
    await warmRetrieval();
  } catch (error) {
    log.error("could not build the retrieval index", error);
  }
  // The routes load on their first request: asked once here, after the server listens, so an agent's first prompt does not pay for it.
  void warmRoutes(env().CHARTER_SELF_URL).finally(() => markStarting(false));
  startRecomputeWorker();
  if (env().CHARTER_REFLECT_ON_SESSION_END) startReflectionWorker();
  try {
    const link = await firstAdminLink(env().CHARTER_ADMIN_EMAIL);
    if (link) {
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
  } catch (error) {
    log.error("could not prepare the first admin sign-in link", error);
  }
}
