import { effectiveScore, PRINCIPLES, scoreDictSchema, type ScoreDict } from "@/lib/reward";
import type { WeightSetRow } from "@/lib/schemas/weight-rows";
import { parseColumn } from "./json-column";
import { SCORE_COLUMN, scoreFields } from "./score-columns";
import { jsonParameter } from "./sql-json";
import type { Tx } from "./transaction";

export type ScoreInput = {
  engine: ScoreDict;
  overrides: Partial<ScoreDict>;
  reasoning: string;
  weights: WeightSetRow;
  constitutionVersionId: number | null;
};

/** A turn_score row's columns (Prisma fields), without its turn id. */
export type ScoreColumns = ReturnType<typeof columns>;

/** A turn's score columns from engine scores, reviewer overrides and a weight set. */
function columns(input: ScoreInput) {
  const effective = effectiveScore(input.engine, input.overrides);
  return {
    engineScores: input.engine,
    ...scoreFields(effective.toDict()),
    weightedTotal: effective.weightedTotal(input.weights.weights),
    maxTotal: input.weights.maxTotal,
    normalizedTotal: effective.normalizedTotal(input.weights.weights),
    reasoning: input.reasoning,
    weightSetId: input.weights.id,
    constitutionVersionId: input.constitutionVersionId,
  };
}

/** Reads turn_score.engine_scores: the engine's seven scores (a missing one is 1.0, as the engine reads it). */
function engineScores(value: unknown, turnId: string): ScoreDict {
  const parsed = parseColumn(scoreDictSchema, value, {
    table: "turn_score",
    id: turnId,
    field: "engine_scores",
  });
  return Object.fromEntries(PRINCIPLES.map((p) => [p, parsed[p] ?? 1])) as ScoreDict;
}

const SQL_COLUMNS = [
  "turn_id",
  "engine_scores",
  ...PRINCIPLES.map((p) => SCORE_COLUMN[p].sql),
  "weighted_total",
  "max_total",
  "normalized_total",
  "reasoning",
  "weight_set_id",
  "constitution_version_id",
];
const SQL_TYPES = [
  "turn_id text",
  "engine_scores jsonb",
  ...PRINCIPLES.map((p) => `${SCORE_COLUMN[p].sql} float8`),
  "weighted_total float8",
  "max_total float8",
  "normalized_total float8",
  "reasoning text",
  "weight_set_id int",
  "constitution_version_id int",
];

function sqlRow(turnId: string, c: ScoreColumns): Record<string, unknown> {
  return {
    turn_id: turnId,
    engine_scores: c.engineScores,
    ...Object.fromEntries(PRINCIPLES.map((p) => [SCORE_COLUMN[p].sql, c[SCORE_COLUMN[p].field]])),
    weighted_total: c.weightedTotal,
    max_total: c.maxTotal,
    normalized_total: c.normalizedTotal,
    reasoning: c.reasoning,
    weight_set_id: c.weightSetId,
    constitution_version_id: c.constitutionVersionId,
  };
}

/** Turn scores: the engine's, reviewers' overrides, and the totals under a weight set. */
export const scores = {
  columns,
  engineScores,

  /** Writes one turn's score row (a reviewer's override re-scores a turn this way). */
  async write(tx: Tx, input: ScoreInput & { turnId: string; rescored?: boolean }) {
    const c = columns(input);
    await tx.turnScore.upsert({
      where: { turnId: input.turnId },
      create: { turnId: input.turnId, ...c },
      update: { ...c, ...(input.rescored ? { scoredAt: new Date() } : {}) },
    });
    return { weighted_total: c.weightedTotal, normalized_total: c.normalizedTotal };
  },

  /** Writes many turns' scores in one statement; a turn scored before is scored again (its scored_at moves). */
  async writeMany(tx: Tx, rows: { turnId: string; columns: ScoreColumns }[]): Promise<void> {
    if (rows.length === 0) return;
    await tx.$executeRawUnsafe(
      scores.upsertManySql("$1"),
      jsonParameter(rows.map((r) => scores.sqlRow(r.turnId, r.columns))),
    );
  },

  /** writeMany's statement, reading its rows (sqlRow) from the JSON parameter `param`: event ingestion runs it inside its own statement. */
  upsertManySql(param: string): string {
    const list = SQL_COLUMNS.join(", ");
    const updates = SQL_COLUMNS.slice(1)
      .map((c) => `${c} = EXCLUDED.${c}`)
      .join(", ");
    return `INSERT INTO turn_score (${list})
       SELECT ${list} FROM jsonb_to_recordset(${param}::jsonb) AS x(${SQL_TYPES.join(", ")})
       ON CONFLICT (turn_id) DO UPDATE SET ${updates}, scored_at = now()`;
  },
  sqlRow,

  /** Reviewers' overrides of the given turns, by turn id. */
  async overridesOf(tx: Tx, turnIds: string[]): Promise<Map<string, Partial<ScoreDict>>> {
    const out = new Map<string, Partial<ScoreDict>>();
    if (turnIds.length === 0) return out;
    const rows = await tx.$queryRawUnsafe<{ turn_id: string; principle: string; value: number }[]>(
      `SELECT turn_id, principle, value FROM score_override WHERE turn_id = ANY($1::text[])`,
      turnIds,
    );
    for (const r of rows) out.set(r.turn_id, { ...out.get(r.turn_id), [r.principle]: r.value });
    return out;
  },

  /**
   * Recomputes the stored totals of the next `limit` turns after `cursor` (by turn id)
   * under a weight set, in SQL; per-principle scores do not change. Turns already under
   * that set (scored after it was saved) are skipped. Returns the turn ids done.
   */
  async reweigh(
    tx: Tx,
    input: { cursor: string | null; limit: number; weights: WeightSetRow },
  ): Promise<string[]> {
    const ids = await tx.$queryRaw<
      { turn_id: string }[]
    >`SELECT turn_id FROM turn_score WHERE turn_id > ${input.cursor ?? ""} AND weight_set_id <> ${input.weights.id} ORDER BY turn_id LIMIT ${input.limit}`;
    if (ids.length > 0) {
      const weights = input.weights.weights;
      const sum = PRINCIPLES.map((p) => `${SCORE_COLUMN[p].sql} * ${Number(weights[p] ?? 1)}`).join(
        " + ",
      );
      await tx.$executeRawUnsafe(
        `UPDATE turn_score SET weighted_total = round((${sum})::numeric, 4)::float8, max_total = $1::float8, normalized_total = CASE WHEN $1::float8 = 0 THEN 0 ELSE round(((${sum}) / $1::float8)::numeric, 4)::float8 END, weight_set_id = $2::int WHERE turn_id = ANY($3::text[])`,
        input.weights.maxTotal,
        input.weights.id,
        ids.map((r) => r.turn_id),
      );
    }
    return ids.map((r) => r.turn_id);
  },
} as const;
