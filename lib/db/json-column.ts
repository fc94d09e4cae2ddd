import type { z } from "zod";
import { AppError } from "@/lib/errors";

/** Where a stored value came from: the table, the row's id and the column. */
export type ColumnRef = { table: string; id: string | number; field: string };

/** A stored row that does not hold what its column promises: a bug or a bad migration, never the caller's fault. */
export class CorruptRowError extends AppError {
  constructor(
    readonly ref: ColumnRef,
    reason: string,
  ) {
    super("internal", 500, `${ref.table} row ${ref.id}: ${ref.field} does not parse (${reason}).`);
  }
}

/**
 * Reads a JSON (or free-text status) column through its schema. A value that does not
 * parse is an error naming the table, row and field, never a silently wrong value.
 */
export function parseColumn<S extends z.ZodType>(
  schema: S,
  value: unknown,
  ref: ColumnRef,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new CorruptRowError(
      ref,
      parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".") || "value"}: ${i.message}`)
        .join("; "),
    );
  return parsed.data;
}
