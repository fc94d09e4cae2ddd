/**
 * Rows as one JSON parameter (read back with `jsonb_to_recordset`). PostgreSQL's text
 * and jsonb hold no NUL: one that got past the edge (a principle title in a version
 * stored before NULs were refused) becomes U+FFFD rather than failing the batch.
 */
export function jsonParameter(rows: unknown[]): string {
  return JSON.stringify(rows).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, "$1\\ufffd");
}
