import { z } from "zod";
import { API_KEY_NAME_MAX_LENGTH, apiKeyScopeSchema } from "@/lib/auth/roles";

/** Creating an API key: shared by the form and the server action. */
export const createApiKeySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Name the key after what will use it.")
    .max(API_KEY_NAME_MAX_LENGTH, `Keep the name under ${API_KEY_NAME_MAX_LENGTH} characters.`),
  scopes: z
    .array(apiKeyScopeSchema)
    .min(1, "Pick at least one scope.")
    .transform((s) => [...new Set(s)]),
});

export const revokeApiKeySchema = z.object({ id: z.string().min(1) });
