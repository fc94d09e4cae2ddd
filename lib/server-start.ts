import { firstAdminLink } from "@/lib/auth/bootstrap";
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
export async function onServerStart(): Promise<void> {
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
  markStarting(false);
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
