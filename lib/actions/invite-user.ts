"use server";
import { revalidatePath } from "next/cache";
import { issueSignInLink } from "@/lib/auth/bootstrap";
import { users } from "@/lib/db/users";
import { inviteUserSchema } from "@/lib/schemas/user";
import { defineAction } from "./client";

/** Adds a person and returns a one-time sign-in link for the admin to pass on. */
export const inviteUserAction = defineAction(
  { role: "admin", input: inviteUserSchema },
  async (input, { actor }) => {
    const user = await users.create(input, actor);
    const link = await issueSignInLink(user.email, actor);
    revalidatePath("/users");
    return { userId: user.id, email: user.email, link };
  },
);
