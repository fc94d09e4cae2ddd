"use server";
import { issueSignInLink } from "@/lib/auth/bootstrap";
import { db } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import { signInLinkSchema } from "@/lib/schemas/user";
import { defineAction } from "./client";

/** A fresh one-time sign-in link for an existing person (Charter sends no e-mail). */
export const issueSignInLinkAction = defineAction({ role: "admin", input: signInLinkSchema }, async ({ userId }) => {
  const user = await db().user.findUnique({ where: { id: userId }, select: { email: true } });
  if (!user) throw new NotFoundError(`No user with id ${userId}.`);
  return { email: user.email, link: await issueSignInLink(user.email) };
});
