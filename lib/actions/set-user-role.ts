"use server";
import { revalidatePath } from "next/cache";
import { users } from "@/lib/db/users";
import { setUserRoleSchema } from "@/lib/schemas/user";
import { defineAction } from "./client";

export const setUserRoleAction = defineAction(
  { role: "admin", input: setUserRoleSchema },
  async ({ userId, role }, { caller }) => {
    const user = await users.setRole(userId, role, { id: caller.userId, label: caller.email });
    revalidatePath("/users");
    return { userId: user.id, role: user.role };
  },
);
