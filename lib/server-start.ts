import { firstAdminLink } from "@/lib/auth/bootstrap";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { ensureConstitution } from "@/lib/services/constitution";
import { startRecomputeWorker } from "@/lib/services/recompute";

/** Work done once per server process, after migrations (which `charter serve` runs first). */
export async function onServerStart(): Promise<void> {
  try {
    await ensureConstitution();
  } catch (error) {
    log.error("could not import the shipped constitution", error);
  }
  startRecomputeWorker();
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
