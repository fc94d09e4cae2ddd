import { randomUUID } from "node:crypto";
import { roleSchema, type Role } from "@/lib/auth/roles";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { auditLog, type Actor } from "./audit";
import { changeBus } from "./change-bus";
import { db } from "./client";
import { inTransaction } from "./transaction";
import type { Prisma } from "./generated/prisma/client";
import { parseColumn } from "./json-column";

export type UserRow = {
  id: string;
  email: string;
  name: string;
  role: Role;
  banned: boolean;
  createdAt: Date;
  lastSeenAt: Date | null;
};

function toRow(
  user: {
    id: string;
    email: string;
    name: string;
    role: string | null;
    banned: boolean | null;
    createdAt: Date;
  },
  lastSeenAt: Date | null,
): UserRow {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    // Better Auth leaves the role empty for a user it made itself: a viewer.
    role:
      user.role === null
        ? "viewer"
        : parseColumn(roleSchema, user.role, { table: "user", id: user.id, field: "role" }),
    banned: user.banned ?? false,
    createdAt: user.createdAt,
    lastSeenAt,
  };
}

/** The later of two instants, either of which may be missing. */
export function latest(a: Date | null | undefined, b: Date | null | undefined): Date | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return a > b ? a : b;
}

/** An admin who can sign in (`banned` is NULL on rows Better Auth made before the admin plugin). */
const ACTIVE_ADMIN = {
  role: "admin",
  OR: [{ banned: false }, { banned: null }],
} satisfies Prisma.UserWhereInput;

const LAST_ADMIN =
  "Charter needs at least one active admin: promote or unblock someone else first.";

/**
 * The ids of the active admins, with their rows locked, so that two admins demoting
 * or blocking each other at once cannot leave no usable admin.
 */
async function lockActiveAdmins(tx: Prisma.TransactionClient): Promise<string[]> {
  const rows = await tx.$queryRaw<
    { id: string }[]
  >`SELECT id FROM "user" WHERE role = 'admin' AND banned IS NOT TRUE FOR UPDATE`;
  return rows.map((row) => row.id);
}

/**
 * People who can sign in, their roles, and the changes to them (each audited). A change
 * to a role or a block is announced on the change bus: API keys act with their owner's
 * current rights, and every instance keeps verified keys in memory (lib/auth/key-cache.ts).
 */
export const users = {
  /**
   * Everyone, oldest first. `lastSeenAt` is when each person last left a trace: the later
   * of their newest session's last update (made at sign-in, refreshed at most once a day)
   * and their newest audit row as actor (a change, a sign-in, a sign-out). Charter records
   * no page views, so this is all the data honestly supports.
   */
  async list(): Promise<UserRow[]> {
    const [rows, audited] = await Promise.all([
      db().user.findMany({
        orderBy: { createdAt: "asc" },
        include: {
          sessions: { select: { updatedAt: true }, orderBy: { updatedAt: "desc" }, take: 1 },
        },
      }),
      db().auditLog.groupBy({
        by: ["actorId"],
        _max: { at: true },
        where: { actorId: { not: null } },
      }),
    ]);
    const lastAudited = new Map(audited.map((row) => [row.actorId, row._max.at]));
    return rows.map((row) =>
      toRow(row, latest(row.sessions[0]?.updatedAt, lastAudited.get(row.id))),
    );
  },

  /** Admins who can sign in: blocked admins do not count. */
  async countAdmins(): Promise<number> {
    return db().user.count({ where: ACTIVE_ADMIN });
  },

  /** The first admin who can sign in, oldest first; null when there is none. */
  async firstAdmin(): Promise<{ id: string; email: string } | null> {
    return db().user.findFirst({
      where: { role: "admin", banned: { not: true } },
      orderBy: { createdAt: "asc" },
      select: { id: true, email: true },
    });
  },

  /** Whether anybody holds a sign-in session (somebody has signed in since the install). */
  async anySignedIn(): Promise<boolean> {
    return (await db().session.count()) > 0;
  },

  /** Creates the user as an admin, or promotes an existing one (unblocking it); audited. */
  async upsertAdmin(
    email: string,
    name: string,
    actor: Actor,
  ): Promise<{ id: string; created: boolean }> {
    const normalized = email.toLowerCase();
    return changeBus.transaction(async (tx, announce) => {
      const existing = await tx.user.findUnique({ where: { email: normalized } });
      if (existing) {
        if (existing.role !== "admin" || existing.banned) {
          await tx.user.update({
            where: { id: existing.id },
            data: { role: "admin", banned: false },
          });
          await auditLog.append(tx, {
            actor,
            action: "user.set_role",
            objectType: "user",
            objectId: existing.id,
            before: { role: existing.role, banned: existing.banned },
            after: { role: "admin", banned: false },
          });
          await announce({ topic: "user", id: existing.id });
        }
        return { id: existing.id, created: false };
      }
      const id = randomUUID();
      await tx.user.create({
        data: { id, email: normalized, name, role: "admin", emailVerified: true },
      });
      await auditLog.append(tx, {
        actor,
        action: "user.create",
        objectType: "user",
        objectId: id,
        after: { email: normalized, name, role: "admin" },
      });
      return { id, created: true };
    });
  },

  async findById(id: string): Promise<UserRow | null> {
    const row = await db().user.findUnique({ where: { id } });
    return row ? toRow(row, null) : null;
  },

  async findByEmail(email: string): Promise<UserRow | null> {
    const row = await db().user.findUnique({ where: { email: email.toLowerCase() } });
    return row ? toRow(row, null) : null;
  },

  /** Adds a person who can then sign in with a link; a taken e-mail is a conflict. */
  async create(input: { email: string; name: string; role: Role }, actor: Actor): Promise<UserRow> {
    const email = input.email.toLowerCase();
    return inTransaction(async (tx) => {
      if (await tx.user.findUnique({ where: { email } }))
        throw new ConflictError(`A user with the e-mail ${email} already exists.`);
      const row = await tx.user.create({
        data: { id: randomUUID(), email, name: input.name, role: input.role, emailVerified: true },
      });
      await auditLog.append(tx, {
        actor,
        action: "user.create",
        objectType: "user",
        objectId: row.id,
        after: { email, name: input.name, role: input.role },
      });
      return toRow(row, null);
    });
  },

  /** Changes a role; the last active admin cannot lose the admin role. Applies from the user's next request. */
  async setRole(userId: string, role: Role, actor: Actor): Promise<UserRow> {
    return changeBus.transaction(async (tx, announce) => {
      const activeAdmins = await lockActiveAdmins(tx);
      const user = await tx.user.findUnique({ where: { id: userId } });
      if (!user) throw new NotFoundError(`No user with id ${userId}.`);
      if (user.role === role) return toRow(user, null);
      if (activeAdmins.includes(userId) && activeAdmins.length <= 1)
        throw new ConflictError(LAST_ADMIN);
      const row = await tx.user.update({ where: { id: userId }, data: { role } });
      await auditLog.append(tx, {
        actor,
        action: "user.set_role",
        objectType: "user",
        objectId: userId,
        before: { role: user.role },
        after: { role },
      });
      await announce({ topic: "user", id: userId });
      return toRow(row, null);
    });
  },

  /** Blocks or unblocks sign-in; a blocked user's sessions end at once. */
  async setBlocked(userId: string, blocked: boolean, actor: Actor): Promise<UserRow> {
    return changeBus.transaction(async (tx, announce) => {
      const activeAdmins = await lockActiveAdmins(tx);
      const user = await tx.user.findUnique({ where: { id: userId } });
      if (!user) throw new NotFoundError(`No user with id ${userId}.`);
      if (blocked && actor.id === userId) throw new ConflictError("You cannot block yourself.");
      if (blocked && activeAdmins.includes(userId) && activeAdmins.length <= 1)
        throw new ConflictError(LAST_ADMIN);
      const row = await tx.user.update({
        where: { id: userId },
        data: { banned: blocked, banReason: blocked ? "blocked by an admin" : null },
      });
      if (blocked) await tx.session.deleteMany({ where: { userId } });
      await auditLog.append(tx, {
        actor,
        action: blocked ? "user.block" : "user.unblock",
        objectType: "user",
        objectId: userId,
        before: { banned: user.banned ?? false },
        after: { banned: blocked },
      });
      await announce({ topic: "user", id: userId });
      return toRow(row, null);
    });
  },

  /** Records that `actor` was handed a sign-in link for the user with `email` (valid `ttlSeconds`). */
  async recordSignInLink(email: string, actor: Actor, ttlSeconds: number): Promise<void> {
    await inTransaction(async (tx) => {
      const user = await tx.user.findUnique({
        where: { email: email.toLowerCase() },
        select: { id: true },
      });
      if (!user) throw new NotFoundError(`No user with the e-mail ${email}.`);
      await auditLog.append(tx, {
        actor,
        action: "user.sign_in_link",
        objectType: "user",
        objectId: user.id,
        after: { email: email.toLowerCase(), validForSeconds: ttlSeconds },
      });
    });
  },

  /**
   * Records a sign-in (a session made by a sign-in link) or a sign-out, as the person
   * who did it. `where` is the client address the server stamped, when it had one.
   */
  async recordSession(
    kind: "sign_in" | "sign_out",
    userId: string,
    where: { ip?: string | null },
  ): Promise<void> {
    await inTransaction(async (tx) => {
      const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
      if (!user) return;
      const after = where.ip ? { ip: where.ip } : undefined;
      await auditLog.append(tx, {
        actor: { id: userId, label: user.email },
        action: `user.${kind}`,
        objectType: "user",
        objectId: userId,
        after,
      });
    });
  },
} as const;
