import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CONTEXT_DELIVERIES,
  JOB_KINDS,
  JOB_STATUSES,
  KEY_POINT_STATUSES,
  OUTCOME_STATUSES,
  REFLECTION_STATUSES,
} from "@/lib/schemas/statuses";
import { setupTestDatabase } from "@/test/db";
import { db } from "./client";

// The database refuses a status outside its list (migration 20261127100000_status_checks),
// and its lists are the ones lib/db checks when it reads (lib/schemas/statuses.ts).

let teardown: () => Promise<void>;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
});
afterAll(() => teardown());

const COLUMNS = [
  ["background_job", "kind", JOB_KINDS],
  ["background_job", "status", JOB_STATUSES],
  ["key_point", "status", KEY_POINT_STATUSES],
  ["session_outcome", "status", OUTCOME_STATUSES],
  ["reflection", "status", REFLECTION_STATUSES],
  ["turn", "context_delivery", CONTEXT_DELIVERIES],
] as const;

/** The values a column's CHECK constraint allows, read back from the database. */
async function allowed(table: string, column: string): Promise<string[]> {
  const rows = await db().$queryRawUnsafe<{ def: string }[]>(
    `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = $1`,
    `${table}_${column}_check`,
  );
  expect(rows, `no CHECK constraint ${table}_${column}_check`).toHaveLength(1);
  return [...rows[0]!.def.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
}

describe("status columns", () => {
  it.each(COLUMNS)(
    "%s.%s allows exactly the values lib/db reads",
    async (table, column, values) => {
      expect((await allowed(table, column)).sort()).toEqual([...values].sort());
    },
  );

  it("a status outside the list is refused by the database itself", async () => {
    await expect(
      db().$executeRawUnsafe(
        `INSERT INTO background_job (kind, status) VALUES ('recompute', 'paused')`,
      ),
    ).rejects.toThrow(/background_job_status_check|23514|check constraint/);
  });
});
