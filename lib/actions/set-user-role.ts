"use server";
import { revalidatePath } from "next/cache";
import { users } from "@/lib/db/users";
import { setUserRoleSchema } from "@/lib/schemas/user";
import { defineAction } from "./client";

export const setUserRoleAction = defineAction(
  { role: "admin", input: setUserRoleSchema },
  async ({ userId, role }, { actor }) => {
    const user = await users.setRole(userId, role, actor);
    revalidatePath("/users");
    return { userId: user.id, role: user.role };
  },
);
