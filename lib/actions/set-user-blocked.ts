"use server";
import { revalidatePath } from "next/cache";
import { users } from "@/lib/db/users";
import { setUserBlockedSchema } from "@/lib/schemas/user";
import { defineAction } from "./client";

export const setUserBlockedAction = defineAction(
  { role: "admin", input: setUserBlockedSchema },
  async ({ userId, blocked }, { actor }) => {
    const user = await users.setBlocked(userId, blocked, actor);
    revalidatePath("/users");
    return { userId: user.id, blocked: user.banned };
  },
);
