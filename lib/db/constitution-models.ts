import {
  evalMetricsSchema,
  learnedModelSchema,
  type StoredModel,
} from "@/lib/schemas/constitution-rows";
import { db } from "./client";
import type { Prisma } from "./generated/prisma/client";
import { headFileWrites } from "./head-file-writes";
import { parseColumn } from "./json-column";
import type { Tx } from "./transaction";

export type { StoredModel };

/** Learned models, one per version: a version's constitution and eval set never change, so neither does its fit. */
export const constitutionModels = {
  async get(versionId: number): Promise<StoredModel | null> {
    const row = await db().constitutionModel.findUnique({ where: { versionId } });
    if (!row) return null;
    const ref = (field: string) => ({ table: "constitution_model", id: versionId, field });
    return {
      versionId,
      model: parseColumn(learnedModelSchema, row.model, ref("model")),
      folds: row.folds,
      keywords: parseColumn(evalMetricsSchema, row.keywords, ref("keywords")),
      crossValidated: parseColumn(evalMetricsSchema, row.crossValidated, ref("cross_validated")),
      fitMs: row.fitMs,
      createdAt: row.createdAt,
    };
  },

  /** Stores a fit; one already stored for the version (by another instance) is kept. The head file follows (lib/db/head-file-writes.ts). */
  async put(fit: Omit<StoredModel, "createdAt">): Promise<void> {
    await headFileWrites.changing(() =>
      db().constitutionModel.createMany({
        data: [
          {
            versionId: fit.versionId,
            model: fit.model as unknown as Prisma.InputJsonValue,
            folds: fit.folds,
            keywords: fit.keywords as unknown as Prisma.InputJsonValue,
            crossValidated: fit.crossValidated as unknown as Prisma.InputJsonValue,
            fitMs: fit.fitMs,
          },
        ],
        skipDuplicates: true,
      }),
    );
  },

  /** The newest fit job of a version, if any: its status and why it failed. */
  async latestFit(versionId: number): Promise<{ status: string; error: string | null } | null> {
    return db().backgroundJob.findFirst({
      where: { kind: "fit", versionId },
      orderBy: { id: "desc" },
      select: { status: true, error: true },
    });
  },

  /** Queues the fit of a version (in the transaction that saves it). */
  async queueFit(tx: Tx, versionId: number): Promise<void> {
    await tx.$executeRaw`INSERT INTO background_job (kind, version_id, status) VALUES ('fit', ${versionId}, 'queued')`;
  },

  /**
   * Queues the fit of a version that has neither a model nor a fit job (versions saved before
   * fits existed); at most one waits at a time, however many instances ask at once.
   */
  async queueFitIfMissing(versionId: number): Promise<void> {
    await db()
      .$executeRaw`INSERT INTO background_job (kind, version_id, status) SELECT 'fit', ${versionId}, 'queued' WHERE NOT EXISTS (SELECT 1 FROM constitution_model WHERE version_id = ${versionId}) AND NOT EXISTS (SELECT 1 FROM background_job WHERE kind = 'fit' AND version_id = ${versionId} AND status IN ('queued', 'running', 'done')) ON CONFLICT (version_id) WHERE kind = 'fit' AND status IN ('queued', 'running') DO NOTHING`;
  },
} as const;
