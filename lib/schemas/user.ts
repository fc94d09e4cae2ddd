import { z } from "zod";
import { roleSchema } from "@/lib/auth/roles";

/** Inviting a person: shared by the Users form and the server action. */
export const inviteUserSchema = z.object({
  email: z.email({ error: "Enter a valid e-mail address." }).trim().toLowerCase(),
  name: z.string().trim().min(1, "Enter a name.").max(100, "Keep the name under 100 characters."),
  role: roleSchema,
});

export const setUserRoleSchema = z.object({ userId: z.string().min(1), role: roleSchema });
export const setUserBlockedSchema = z.object({ userId: z.string().min(1), blocked: z.boolean() });
export const signInLinkSchema = z.object({ userId: z.string().min(1) });
