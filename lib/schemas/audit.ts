import { z } from "zod";
import { queryBigintIdSchema, queryTextSchema } from "./query";

/** The audit log page's search params: `before`, the id of the previous page's last entry; `type`, an object type. */
export const auditQuerySchema = z.object({
  before: queryBigintIdSchema.optional(),
  type: queryTextSchema(100).optional(),
});
