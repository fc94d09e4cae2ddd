import { z } from "zod";
import { apiKeyScopeSchema } from "@/lib/auth/roles";

/** Creating an API key: shared by the form and the server action. */
export const createApiKeySchema = z.object({
  name: z.string().trim().min(1, "Name the key after what will use it.").max(64, "Keep the name under 64 characters."),
  scopes: z.array(apiKeyScopeSchema).min(1, "Pick at least one scope.").transform((s) => [...new Set(s)]),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

export const revokeApiKeySchema = z.object({ id: z.string().min(1) });
