import { z } from "zod";
import { agentFilterSchema } from "./agents";
import { queryInstantSchema } from "./query";

/** The Sessions page's search params: `before`, the last event time of the previous page's last row; `agent`. */
export const sessionsQuerySchema = z.object({
  before: queryInstantSchema.optional(),
  agent: agentFilterSchema.optional(),
});

/** The Principles page's search params: `agent`, to see trust from one agent's sessions. */
export const principlesQuerySchema = z.object({
  agent: agentFilterSchema.optional(),
});
