"use server";
import { revalidatePath } from "next/cache";
import { apiKeys } from "@/lib/db/api-keys";
import { createApiKeySchema } from "@/lib/schemas/api-key";
import { defineAction } from "./client";

/** Creates a key; the full key is in this one response and nowhere else. */
export const createApiKeyAction = defineAction(
  { role: "admin", input: createApiKeySchema },
  async (input, { actor }) => {
    const created = await apiKeys.create(input, actor);
    revalidatePath("/api-keys");
    return created;
  },
);
