"use server";
import { revalidatePath } from "next/cache";
import { apiKeys } from "@/lib/db/api-keys";
import { revokeApiKeySchema } from "@/lib/schemas/api-key";
import { defineAction } from "./client";

export const revokeApiKeyAction = defineAction(
  { role: "admin", input: revokeApiKeySchema },
  async ({ id }, { caller }) => {
    await apiKeys.revoke(id, { id: caller.userId, label: caller.email });
    revalidatePath("/api-keys");
    return { id };
  },
);
