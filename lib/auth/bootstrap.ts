import { randomUUID } from "node:crypto";
import { auditLog, SYSTEM_ACTOR, type Actor } from "@/lib/db/audit";
import { db } from "@/lib/db/client";
import { auth } from "./auth";
import { captureSignInLink } from "./links";

/** Makes a single-use sign-in link for an existing user (no e-mail is sent). */
export async function issueSignInLink(email: string, callbackURL = "/"): Promise<string> {
  return captureSignInLink(email, () => auth().api.signInMagicLink({ body: { email, callbackURL }, headers: new Headers() }));
}

/** Creates the user as an admin, or promotes an existing one; audited. */
export async function upsertAdmin(email: string, name: string, actor: Actor = SYSTEM_ACTOR): Promise<{ id: string; created: boolean }> {
  const normalized = email.toLowerCase();
  return db().$transaction(async (tx) => {
    const existing = await tx.user.findUnique({ where: { email: normalized } });
    if (existing) {
      if (existing.role !== "admin" || existing.banned) {
        await tx.user.update({ where: { id: existing.id }, data: { role: "admin", banned: false } });
        await auditLog.append(tx, { actor, action: "user.set_role", objectType: "user", objectId: existing.id, before: { role: existing.role, banned: existing.banned }, after: { role: "admin", banned: false } });
      }
      return { id: existing.id, created: false };
    }
    const id = randomUUID();
    await tx.user.create({ data: { id, email: normalized, name, role: "admin", emailVerified: true } });
    await auditLog.append(tx, { actor, action: "user.create", objectType: "user", objectId: id, after: { email: normalized, name, role: "admin" } });
    return { id, created: true };
  });
}

/**
 * On a fresh install, creates the first admin and returns a one-time sign-in link
 * for it (printed by the server like Jupyter's token). Until somebody has signed
 * in, every start prints a fresh link; afterwards it returns null.
 */
export async function firstAdminLink(email: string): Promise<string | null> {
  const admins = await db().user.findMany({ where: { role: "admin" }, orderBy: { createdAt: "asc" }, take: 1 });
  let adminEmail = admins[0]?.email;
  if (!adminEmail) {
    await upsertAdmin(email, "Admin");
    adminEmail = email.toLowerCase();
  } else if ((await db().session.count()) > 0) {
    return null;
  }
  return issueSignInLink(adminEmail);
}
