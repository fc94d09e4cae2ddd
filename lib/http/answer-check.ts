import { z } from "zod";
import { env } from "@/lib/env";
import { issueLines } from "@/lib/errors";
import { errorBodySchema, statusesOf, type RouteContract } from "./contract";

/*
 * In tests, every answer of route() is checked against its contract: a status the
 * contract does not declare, or a body its schema for that status does not accept,
 * throws out of the route (the caller's `await GET(req)` rejects, naming the route,
 * the status and each problem). Never in production: the ingest route would pay
 * for a second read of every answer.
 */

/** An answer that breaks its route's contract; thrown only while answers are checked. */
export class AnswerMismatchError extends Error {
  constructor(contract: RouteContract, status: number, problem: string) {
    super(`${contract.method} ${contract.path} answered ${status}: ${problem}`);
    this.name = "AnswerMismatchError";
  }
}

let forced: boolean | undefined;

/** Turns the checks on or off whatever NODE_ENV says (`undefined`: back to NODE_ENV). For tests of the check itself. */
export function setAnswerChecks(on: boolean | undefined): void {
  forced = on;
}

/** Whether route() checks its answers: under test (NODE_ENV=test, as vitest sets it), unless set otherwise. */
export function answerChecksOn(): boolean {
  return forced ?? env().NODE_ENV === "test";
}

/** Every answer may be a 500 for a fault no contract lists, in the error shape. */
const INTERNAL_ERROR = 500;

/** Throws AnswerMismatchError unless `res` is an answer `contract` declares, with a body its schema accepts. */
export async function checkAnswer(contract: RouteContract, res: Response): Promise<void> {
  const status = res.status;
  const schemas: z.ZodType[] = [];
  const declared = contract.responses[status];
  if (declared) schemas.push(declared.schema);
  if (contract.errors[status] || status === INTERNAL_ERROR) schemas.push(errorBodySchema);
  if (schemas.length === 0)
    throw new AnswerMismatchError(
      contract,
      status,
      `its contract declares only ${statusesOf(contract).join(", ")}`,
    );
  // A binary answer the contract declares (protobuf, say) has no JSON to check.
  const type = res.headers.get("content-type")?.split(";")[0]?.trim();
  if (declared?.binary && type === declared.binary) return;
  let body: unknown;
  try {
    body = JSON.parse(await res.clone().text());
  } catch {
    throw new AnswerMismatchError(contract, status, "the body is not JSON");
  }
  const results = schemas.map((schema) => schema.safeParse(body));
  const failure = results.find((result) => !result.success);
  if (!failure || results.some((result) => result.success)) return;
  throw new AnswerMismatchError(
    contract,
    status,
    `the body breaks the contract's schema:\n${issueLines(failure.error!.issues).join("\n")}`,
  );
}
