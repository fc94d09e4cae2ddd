import { randomUUID } from "node:crypto";
import type { ExtractionResult } from "@/lib/playbook";
import { reflectionResultSchema, type ReflectionRow } from "@/lib/schemas/reflection-rows";
import { reflectionStatusSchema } from "@/lib/schemas/statuses";
import { db } from "./client";
import { parseColumn } from "./json-column";

/** What one reflector run did: what it applied, or why it applied nothing. */
export type ReflectionRecord =
  | {
      status: "applied";
      extraction: ExtractionResult;
      added: string[];
      evaluated: number;
      proposed: string[];
      withdrawn: string[];
      warnings: string[];
    }
  | { status: "failed"; error: string };

/** Reflector runs on sessions (reflection). */
export const reflections = {
  /** Records one run. */
  async record(sessionId: string, outcome: ReflectionRecord): Promise<void> {
    await db().reflection.create({
      data: {
        id: randomUUID(),
        sessionId,
        status: outcome.status,
        result:
          outcome.status === "applied"
            ? {
                extraction: outcome.extraction,
                added: outcome.added,
                evaluated: outcome.evaluated,
                proposed: outcome.proposed,
                withdrawn: outcome.withdrawn,
                warnings: outcome.warnings,
              }
            : undefined,
        error: outcome.status === "failed" ? outcome.error : null,
      },
    });
  },

  /** The newest reflection of a session, for its page. */
  async latest(sessionId: string): Promise<ReflectionRow | null> {
    const row = await db().reflection.findFirst({
      where: { sessionId },
      orderBy: { createdAt: "desc" },
    });
    if (!row) return null;
    const ref = { table: "reflection", id: row.id };
    return {
      id: row.id,
      sessionId: row.sessionId,
      status: parseColumn(reflectionStatusSchema, row.status, { ...ref, field: "status" }),
      result:
        row.result === null
          ? null
          : parseColumn(reflectionResultSchema, row.result, { ...ref, field: "result" }),
      error: row.error,
      createdAt: row.createdAt,
    };
  },
} as const;
