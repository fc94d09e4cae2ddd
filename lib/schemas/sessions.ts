import { z } from "zod";
import { queryInstantSchema } from "./query";

/** The Sessions page's search params: `before`, the last event time of the previous page's last row. */
export const sessionsQuerySchema = z.object({
  before: queryInstantSchema.optional(),
});
