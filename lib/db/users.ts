import { randomUUID } from "node:crypto";
import type { Role } from "@/lib/auth/roles";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { auditLog, type Actor } from "./audit";
import { db } from "./client";

export type UserRow = {
  id: string;
  email: string;
  name: string;
  role: Role;
  banned: boolean;
  createdAt: Date;
  lastSeenAt: Date | null;
};

function toRow(user: { id: string; email: string; name: string; role: string | null; banned: boolean | null; createdAt: Date }, lastSeenAt: Date | null): UserRow {
  return { id: user.id, email: user.email, name: user.name, role: (user.role ?? "viewer") as Role, banned: user.banned ?? false, createdAt: user.createdAt, lastSeenAt };
}

/** People who can sign in, their roles, and the changes to them (each audited). */
export const users = {
  async list(): Promise<UserRow[]> {
    const rows = await db().user.findMany({
      orderBy: { createdAt: "asc" },
      include: { sessions: { select: { updatedAt: true }, orderBy: { updatedAt: "desc" }, take: 1 } },
    });
    return rows.map((row) => toRow(row, row.sessions[0]?.updatedAt ?? null));
  },

  async countAdmins(): Promise<number> {
    return db().user.count({ where: { role: "admin", banned: { not: true } } });
  },

  async findByEmail(email: string): Promise<UserRow | null> {
    const row = await db().user.findUnique({ where: { email: email.toLowerCase() } });
    return row ? toRow(row, null) : null;
  },

  /** Adds a person who can then sign in with a link; a taken e-mail is a conflict. */
  async create(input: { email: string; name: string; role: Role }, actor: Actor): Promise<UserRow> {
    const email = input.email.toLowerCase();
    return db().$transaction(async (tx) => {
      if (await tx.user.findUnique({ where: { email } })) throw new ConflictError(`A user with the e-mail ${email} already exists.`);
      const row = await tx.user.create({
        data: { id: randomUUID(), email, name: input.name, role: input.role, emailVerified: true },
      });
      await auditLog.append(tx, { actor, action: "user.create", objectType: "user", objectId: row.id, after: { email, name: input.name, role: input.role } });
      return toRow(row, null);
    });
  },

  /** Changes a role; the last admin cannot lose the admin role. Applies from the user's next request. */
  async setRole(userId: string, role: Role, actor: Actor): Promise<UserRow> {
    return db().$transaction(async (tx) => {
      // Row lock so that two admins demoting each other at once cannot leave no admin.
      const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "user" WHERE role = 'admin' FOR UPDATE`;
      const user = await tx.user.findUnique({ where: { id: userId } });
      if (!user) throw new NotFoundError(`No user with id ${userId}.`);
      if (user.role === role) return toRow(user, null);
      if (user.role === "admin" && locked.length <= 1) throw new ConflictError("Charter needs at least one admin: promote someone else first.");
      const row = await tx.user.update({ where: { id: userId }, data: { role } });
      await auditLog.append(tx, { actor, action: "user.set_role", objectType: "user", objectId: userId, before: { role: user.role }, after: { role } });
      return toRow(row, null);
    });
  },

  /** Blocks or unblocks sign-in; a blocked user's sessions end at once. */
  async setBlocked(userId: string, blocked: boolean, actor: Actor): Promise<UserRow> {
    return db().$transaction(async (tx) => {
      const user = await tx.user.findUnique({ where: { id: userId } });
      if (!user) throw new NotFoundError(`No user with id ${userId}.`);
      if (blocked && actor.id === userId) throw new ConflictError("You cannot block yourself.");
      const row = await tx.user.update({ where: { id: userId }, data: { banned: blocked, banReason: blocked ? "blocked by an admin" : null } });
      if (blocked) await tx.session.deleteMany({ where: { userId } });
      await auditLog.append(tx, { actor, action: blocked ? "user.block" : "user.unblock", objectType: "user", objectId: userId, before: { banned: user.banned ?? false }, after: { banned: blocked } });
      return toRow(row, null);
    });
  },
} as const;
