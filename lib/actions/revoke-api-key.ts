"use server";
import { revalidatePath } from "next/cache";
import { apiKeys } from "@/lib/db/api-keys";
import { revokeApiKeySchema } from "@/lib/schemas/api-key";
import { defineAction } from "./client";

export const revokeApiKeyAction = defineAction(
  { role: "admin", input: revokeApiKeySchema },
  async ({ id }, { actor }) => {
    await apiKeys.revoke(id, actor);
    revalidatePath("/api-keys");
    return { id };
  },
);
