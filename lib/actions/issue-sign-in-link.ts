"use server";
import { issueSignInLink } from "@/lib/auth/bootstrap";
import { users } from "@/lib/db/users";
import { NotFoundError } from "@/lib/errors";
import { signInLinkSchema } from "@/lib/schemas/user";
import { defineAction } from "./client";

/** A fresh one-time sign-in link for an existing person (Charter sends no e-mail); who asked for it is audited. */
export const issueSignInLinkAction = defineAction(
  { role: "admin", input: signInLinkSchema },
  async ({ userId }, { actor }) => {
    const user = await users.findById(userId);
    if (!user) throw new NotFoundError(`No user with id ${userId}.`);
    return {
      email: user.email,
      link: await issueSignInLink(user.email, actor),
    };
  },
);
