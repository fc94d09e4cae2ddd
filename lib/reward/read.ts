import { fieldIssues } from "@/lib/errors";
import {
  SCORED_TURN_FIELDS,
  turnResultSchema,
  UNSCORED_TURN_FIELDS,
  type TurnResult,
} from "./schema";

/** One problem with a TurnResult: the field (`""` for the whole turn) and what is wrong with it. */
export type TurnProblem = { field: string; message: string };

/** Thrown for a TurnResult that cannot be scored right (a field the score reads has the wrong type). */
export class TurnResultError extends Error {
  constructor(readonly problems: TurnProblem[]) {
    super(
      `Invalid TurnResult: ${problems.map((p) => `${["turn_result", p.field].filter(Boolean).join(".")}: ${p.message}`).join("; ")}`,
    );
    this.name = "TurnResultError";
  }
}

/**
 * A TurnResult as read: `turn` is null when there is none (kgents then scores every
 * principle 1.0); `ignored_fields` lists the fields present that the score does not
 * read, in input order; `warnings` says what looked wrong but was read anyway.
 */
export type TurnReading = { turn: TurnResult | null; ignored_fields: string[]; warnings: string[] };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const kindOf = (value: unknown) =>
  value === null ? "null" : Array.isArray(value) ? "a list" : `a ${typeof value}`;
const SCORED: readonly string[] = SCORED_TURN_FIELDS;
const UNSCORED: readonly string[] = UNSCORED_TURN_FIELDS;

/**
 * Reads a TurnResult the way kgents' reward reads its dataclass (docs/spec/turn-score.md): a missing
 * or null turn is no turn; kgents' own unscored fields (user_corrected, signals,
 * stopping_suggestion) are accepted whatever they hold; any other field is ignored
 * with a warning naming it; every entry of `tools` counts, named or not. A field the
 * score reads with the wrong type (a response that is not a string, tools that are
 * not a list, tools_passed that is not a boolean, context_utilization outside 0..1)
 * throws TurnResultError naming it, since reading it anyway would give a wrong score.
 */
export function readTurnResult(input: unknown): TurnReading {
  if (input === undefined || input === null)
    return { turn: null, ignored_fields: [], warnings: [] };
  if (!isRecord(input))
    throw new TurnResultError([
      { field: "", message: `must be an object (a TurnResult) or null, not ${kindOf(input)}` },
    ]);
  const parsed = turnResultSchema.safeParse(input);
  if (!parsed.success)
    throw new TurnResultError(
      fieldIssues(parsed.error.issues, "").map(({ path, message }) => ({ field: path, message })),
    );
  const ignored_fields = Object.keys(input).filter((key) => !SCORED.includes(key));
  const warnings = ignored_fields
    .filter((key) => !UNSCORED.includes(key))
    .map((key) => `turn_result.${key}: not a TurnResult field; ignored`);
  parsed.data.tools.forEach((tool, index) => {
    if (!isRecord(tool))
      warnings.push(
        `turn_result.tools.${index}: ${kindOf(tool)}, not an object; counted as one tool`,
      );
  });
  return { turn: parsed.data, ignored_fields, warnings };
}
