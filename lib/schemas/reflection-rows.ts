import { z } from "zod";
import { reflectionStatusSchema } from "./statuses";

/** What an applied reflection stored (reflection.result): the extraction it applied and what changed. */
export const reflectionResultSchema = z.looseObject({
  extraction: z
    .looseObject({
      new_key_points: z.array(z.string()),
      evaluations: z.array(z.looseObject({ name: z.string(), rating: z.string() })),
    })
    .optional(),
  added: z.array(z.string()).optional(),
  evaluated: z.number().optional(),
  proposed: z.array(z.string()).optional(),
  withdrawn: z.array(z.string()).optional(),
  warnings: z.array(z.string()).optional(),
});
export type ReflectionResult = z.infer<typeof reflectionResultSchema>;

/** A session's last reflection, as its page shows it. */
export type ReflectionRow = {
  id: string;
  sessionId: string;
  status: z.infer<typeof reflectionStatusSchema>;
  result: ReflectionResult | null;
  error: string | null;
  createdAt: Date;
};
