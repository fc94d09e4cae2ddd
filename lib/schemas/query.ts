import { z } from "zod";
import { isStorableText, UNSTORABLE_MESSAGE } from "./text";

/**
 * Query parameters of the read paths (dashboard pages and GET routes). Each bad
 * value is refused with a message naming what is wanted, so a route answers 422
 * and a page says which parameter it ignored; none reaches the database. Dates are
 * bounded to what PostgreSQL and JavaScript both represent (year 0000 is neither's).
 */
export const QUERY_DATE_MIN = "1970-01-01";
export const QUERY_DATE_MAX = "9999-12-31";
const MIN_MS = Date.parse(`${QUERY_DATE_MIN}T00:00:00.000Z`);
/** The last instant of QUERY_DATE_MAX. */
export const QUERY_INSTANT_MAX_MS = Date.parse(`${QUERY_DATE_MAX}T23:59:59.999Z`);

const inRange = (ms: number) => ms >= MIN_MS && ms <= QUERY_INSTANT_MAX_MS;

/** A UTC day, `YYYY-MM-DD`, from 1970-01-01 to 9999-12-31. */
export const queryDaySchema = z.iso
  .date({ abort: true, message: "must be a date, YYYY-MM-DD" })
  .refine((day) => inRange(Date.parse(day)), {
    message: `must be from ${QUERY_DATE_MIN} to ${QUERY_DATE_MAX}`,
  });

/** An instant, ISO 8601 with an offset, from 1970-01-01 to the end of 9999-12-31 (UTC). */
export const queryInstantSchema = z.iso
  .datetime({
    offset: true,
    abort: true,
    message: "must be an ISO 8601 time with an offset, e.g. 2026-01-31T12:00:00.000Z",
  })
  .refine((at) => inRange(Date.parse(at)), {
    message: `must be from ${QUERY_DATE_MIN} to ${QUERY_DATE_MAX}`,
  });

/** An id or name to look rows up by: at most `max` characters, nothing PostgreSQL cannot compare. */
export const queryTextSchema = (max: number) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(max)
    .refine(isStorableText, { message: UNSTORABLE_MESSAGE });

/** The largest value of a PostgreSQL integer, the type of constitution version ids. */
export const INTEGER_MAX = 2_147_483_647;

/** A row id of an integer column (a constitution version). */
export const queryIntIdSchema = z.coerce
  .number()
  .int({ abort: true, message: "must be a whole number" })
  .positive("must be at least 1")
  .max(INTEGER_MAX, `must be at most ${INTEGER_MAX}`);

/** The largest value of a PostgreSQL bigint, the type of the audit log's ids. */
export const BIGINT_MAX = 9223372036854775807n;

/** A row id of a bigint column, as decimal digits (the audit log's `before`). */
export const queryBigintIdSchema = z
  .string()
  .regex(/^\d{1,19}$/, { abort: true, message: "must be a whole number" })
  .refine((id) => BigInt(id) <= BIGINT_MAX, { message: `must be at most ${BIGINT_MAX}` });

export type SearchParams = Record<string, string | string[] | undefined>;
export type QueryProblem = { field: string; message: string };

/**
 * Reads a page's search params with a schema of optional fields: the first value of
 * each, trimmed; empty values dropped (a submitted form leaves them); each field the
 * schema refuses dropped and reported, so a bad link still shows the page.
 */
export function parseSearchParams<S extends z.ZodObject>(
  schema: S,
  params: SearchParams,
): { query: Partial<z.output<S>>; problems: QueryProblem[] } {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = params[key];
    const text = (Array.isArray(value) ? value[0] : value)?.trim();
    if (text) raw[key] = text;
  }
  const first = schema.safeParse(raw);
  if (first.success) return { query: first.data, problems: [] };
  const problems = first.error.issues.map((i) => ({
    field: String(i.path[0] ?? ""),
    message: i.message,
  }));
  for (const p of problems) delete raw[p.field];
  const second = schema.safeParse(raw);
  return { query: second.success ? second.data : {}, problems };
}

/** One line for a page: which parameters were ignored and why. */
export function problemsText(problems: QueryProblem[]): string {
  return `Ignored invalid parameters: ${problems.map((p) => `${p.field} (${p.message})`).join("; ")}.`;
}
