import { SYSTEM_ACTOR, type Actor } from "@/lib/db/audit";
import { FIRST_ADMIN_LINK_ACTOR, lifecycle } from "@/lib/db/lifecycle";
import { users } from "@/lib/db/users";
import { auth, SIGN_IN_LINK_TTL_SECONDS } from "./auth";
import { captureSignInLink } from "./links";

/** Where a used or expired link lands: the sign-in page, which says what went wrong from `?error=`. */
export const SIGN_IN_ERROR_PATH = "/sign-in";

/**
 * Makes a single-use sign-in link for an existing user (no e-mail is sent, nothing is
 * logged) and audits who asked for it: a link lets whoever holds it act as that user.
 */
export async function issueSignInLink(
  email: string,
  actor: Actor = SYSTEM_ACTOR,
  callbackURL = "/",
): Promise<string> {
  const link = await captureSignInLink(email, (metadata) =>
    auth().api.signInMagicLink({
      body: { email, callbackURL, errorCallbackURL: SIGN_IN_ERROR_PATH, metadata },
      headers: new Headers(),
    }),
  );
  // After the link is made, before it is handed out: a link whose record failed is never shown.
  await users.recordSignInLink(email, actor, SIGN_IN_LINK_TTL_SECONDS);
  return link;
}

/** Creates the user as an admin, or promotes an existing one; audited. */
export async function upsertAdmin(
  email: string,
  name: string,
  actor: Actor = SYSTEM_ACTOR,
): Promise<{ id: string; created: boolean }> {
  return users.upsertAdmin(email, name, actor);
}

/**
 * How long a first-admin link printed at start stands for every instance starting on the
 * same database: instances started together (one start-up wave) print one link between them.
 */
export const FIRST_ADMIN_LINK_WAVE_SECONDS = 300;

/** What a start says about the first admin: a fresh link, the time another start printed one, or nothing (somebody signed in). */
export type FirstAdminLink =
  { kind: "link"; link: string } | { kind: "printed-elsewhere"; at: Date } | null;

/**
 * On a fresh install, creates the first admin and returns a one-time sign-in link
 * for it (printed by the server like Jupyter's token). Until somebody has signed in,
 * each start-up wave gets one fresh link: a start within FIRST_ADMIN_LINK_WAVE_SECONDS
 * of another start's link says when that one was printed instead. Call it under
 * lifecycle.serialisedStart: the audit row of the link is the claim the next start reads.
 */
export async function firstAdminLink(email: string): Promise<FirstAdminLink> {
  const admin = await ensureAdmin(email);
  if (!admin.appointed && (await users.anySignedIn())) return null;
  const printed = await lifecycle.firstAdminLinkSince(admin.id, FIRST_ADMIN_LINK_WAVE_SECONDS);
  if (printed) return { kind: "printed-elsewhere", at: printed };
  return { kind: "link", link: await issueSignInLink(admin.email, FIRST_ADMIN_LINK_ACTOR) };
}

/**
 * The first admin, oldest first; when there is none, makes `email` the admin (created,
 * or promoted; audited) and says so with `appointed`. Keys made without a signed-in
 * admin (the CLI, CHARTER_INIT_API_KEY) are owned by this admin.
 */
export async function ensureAdmin(
  email: string,
  actor: Actor = SYSTEM_ACTOR,
): Promise<{ id: string; email: string; appointed: boolean }> {
  const first = await users.firstAdmin();
  if (first) return { ...first, appointed: false };
  const { id } = await upsertAdmin(email, "Admin", actor);
  return { id, email: email.toLowerCase(), appointed: true };
}
