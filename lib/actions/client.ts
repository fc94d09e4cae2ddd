import "server-only";
import { headers } from "next/headers";
import { z } from "zod";
import { allows, resolveCaller, type UserCaller } from "@/lib/auth/caller";
import type { Role } from "@/lib/auth/roles";
import type { Actor } from "@/lib/db/audit";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import {
  AppError,
  ForbiddenError,
  ServiceUnavailableError,
  UnauthorizedError,
  validationErrorFrom,
} from "@/lib/errors";
import { log } from "@/lib/log";

import type { ActionResult } from "./result";

export type { ActionError, ActionResult } from "./result";
export type { UserCaller };

/** What an action runs with: the signed-in caller, and the actor its audit rows name. */
export type ActionContext = { caller: UserCaller; actor: Actor };

/** The signed-in user as audit rows name them. */
export function actorOf(caller: UserCaller): Actor {
  return { id: caller.userId, label: caller.email };
}

/**
 * The one action client: every server action is built with it, so that the caller's
 * role, input validation (with the same zod schema the form uses), the actor its audit
 * rows name, and error mapping happen once. Actions return a result instead of throwing,
 * so a refused action shows a message in the form, never a stack trace.
 */
export function defineAction<S extends z.ZodType, T>(
  config: { role: Role; input: S },
  run: (input: z.output<S>, ctx: ActionContext) => Promise<T>,
): (input: z.input<S>) => Promise<ActionResult<T>> {
  return async (input) => {
    try {
      const caller = await resolveCaller(await headers());
      if (!caller || caller.kind !== "user")
        throw new UnauthorizedError("Your session has ended: sign in again.");
      if (!allows(caller, { role: config.role }))
        throw new ForbiddenError(`This needs the ${config.role} role or higher.`);
      const parsed = config.input.safeParse(input);
      if (!parsed.success) throw validationErrorFrom(parsed.error.issues);
      return { ok: true, data: await run(parsed.data, { caller, actor: actorOf(caller) }) };
    } catch (error) {
      if (error instanceof AppError) return { ok: false, error: error.toJSON().error };
      if (isDatabaseUnavailable(error))
        return { ok: false, error: new ServiceUnavailableError().toJSON().error };
      log.error("unhandled error in server action", error);
      return {
        ok: false,
        error: { code: "internal", message: "Something went wrong on the server." },
      };
    }
  };
}
