import { z } from "zod";

/** What `GET /api/health` answers, ready or not (lib/startup.ts serverState, lib/db/health.ts). */
export const healthSchema = z.strictObject({
  status: z
    .enum(["ok", "degraded", "starting", "draining"])
    .describe(
      "`ok`: takes traffic. `starting`: not warm yet. `draining`: shutting down. `degraded`: the database does not answer.",
    ),
  db: z.enum(["embedded", "postgres"]),
  version: z.string(),
  caller: z
    .strictObject({ kind: z.enum(["user", "api_key"]), name: z.string() })
    .optional()
    .describe("With `auth=1`: who the credential belongs to."),
});
export type Health = z.output<typeof healthSchema>;

/** `?auth=1` demands a credential; any other value is ignored, as if absent. */
export const healthQuerySchema = z.object({
  auth: z
    .enum(["1"])
    .optional()
    .catch(undefined)
    .describe("`1`: demand a session or an API key, and name its owner in `caller`."),
});
