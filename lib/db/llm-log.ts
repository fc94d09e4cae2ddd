import type { ParseContract } from "@/lib/constitution";
import type { LlmCallKey, LlmCallRecord, LlmCallSink } from "@/lib/llm/types";
import { log } from "@/lib/log";
import { Prisma } from "./generated/prisma/client";
import { db } from "./client";

/**
 * The LLM call log in the database. Writes are queued in order and never block or
 * fail the call they describe; a failed write is logged once and dropped.
 */
export class DbCallLog implements LlmCallSink {
  private tail: Promise<unknown> = Promise.resolve();

  private enqueue(work: () => Promise<unknown>): void {
    this.tail = this.tail
      .then(work)
      .catch((error: unknown) =>
        log.warn(
          `could not write the LLM call log: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
  }

  record(call: LlmCallRecord): void {
    this.enqueue(() =>
      db().llmCall.create({
        data: {
          at: call.at,
          component: call.component,
          model: call.model,
          promptHash: call.promptHash,
          latencyMs: Math.round(call.latencyMs),
          promptTokens: call.promptTokens,
          completionTokens: call.completionTokens,
          outcome: call.outcome,
          error: call.error ?? null,
          runId: call.runId ?? null,
          requestId: call.requestId ?? null,
        },
      }),
    );
  }

  /** Attaches a parse contract to the newest call of that component and request that has none yet. */
  recordParse(key: LlmCallKey, contract: ParseContract): void {
    this.enqueue(async () => {
      const row = await db().llmCall.findFirst({
        where: {
          component: key.component,
          requestId: key.requestId ?? null,
          runId: key.runId ?? null,
          parseContract: { equals: Prisma.AnyNull },
        },
        orderBy: { id: "desc" },
        select: { id: true },
      });
      if (row)
        await db().llmCall.update({
          where: { id: row.id },
          data: { parseContract: contract as unknown as Prisma.InputJsonValue },
        });
    });
  }

  /** Resolves when every queued write has finished (tests and the CLI wait on it). */
  flush(): Promise<unknown> {
    return this.tail;
  }
}
