import type { EvalReport } from "@/lib/constitution";
import {
  evalFailuresSchema,
  evalMetricsSchema,
  evalPathSchema,
  thresholdResultsSchema,
  type EvalPath,
  type EvalRun,
} from "@/lib/schemas/constitution-rows";
import { db } from "./client";
import type { Prisma } from "./generated/prisma/client";
import { parseColumn } from "./json-column";

export type { EvalPath, EvalRun };

type Row = {
  versionId: number;
  path: string;
  passed: boolean;
  caseCount: number;
  metrics: unknown;
  thresholds: unknown;
  failures: unknown;
  createdAt: Date;
};

function toRun(row: Row): EvalRun {
  const ref = (field: string) => ({
    table: "constitution_eval_run",
    id: `${row.versionId}/${row.path}`,
    field,
  });
  return {
    versionId: row.versionId,
    path: parseColumn(evalPathSchema, row.path, ref("path")),
    passed: row.passed,
    caseCount: row.caseCount,
    metrics: parseColumn(evalMetricsSchema, row.metrics, ref("metrics")),
    thresholds: parseColumn(thresholdResultsSchema, row.thresholds, ref("thresholds")),
    failures: parseColumn(evalFailuresSchema, row.failures, ref("failures")),
    createdAt: row.createdAt,
  };
}

/** Eval runs, one per version and path: a version's constitution and eval set never change, so neither does its run. */
export const constitutionEvals = {
  async get(versionId: number, path: EvalPath): Promise<EvalRun | null> {
    const row = await db().constitutionEvalRun.findUnique({
      where: { versionId_path: { versionId, path } },
    });
    return row ? toRun(row) : null;
  },

  /** Runs of these versions on a path, by version id. */
  async forVersions(versionIds: number[], path: EvalPath): Promise<Map<number, EvalRun>> {
    const rows = await db().constitutionEvalRun.findMany({
      where: { versionId: { in: versionIds }, path },
    });
    return new Map(rows.map((r) => [r.versionId, toRun(r)]));
  },

  /** Stores a run; a run already stored for the version and path (computed by another request) is kept. */
  async put(versionId: number, path: EvalPath, report: EvalReport): Promise<EvalRun> {
    const data = {
      versionId,
      path,
      passed: report.passed,
      caseCount: report.metrics.cases,
      metrics: report.metrics as unknown as Prisma.InputJsonValue,
      thresholds: report.thresholds as unknown as Prisma.InputJsonValue,
      failures: report.failures as unknown as Prisma.InputJsonValue,
    };
    await db().constitutionEvalRun.createMany({ data: [data], skipDuplicates: true });
    return (await this.get(versionId, path))!;
  },
} as const;
