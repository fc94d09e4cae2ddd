import "server-only";
import { allows, apiKeyFrom, resolveCaller, type Access, type Caller } from "@/lib/auth/caller";
import { baseUrl } from "@/lib/env";
import { ForbiddenError, UnauthorizedError } from "@/lib/errors";
import { assertSameOriginJson, type RequestHead } from "./same-origin";

/**
 * The caller of a request that needs `access`, or the error that refuses it: a
 * cookie's cross-origin or non-JSON write (checked before the caller is resolved, so
 * a forged request costs no lookup and changes nothing), no caller (401), or a caller
 * without the role or scope (403). Used by route() and by the events endpoint's
 * direct path (events-direct.ts).
 */
export async function authorize(req: RequestHead, access: Access): Promise<Caller> {
  if (!apiKeyFrom(req.headers)) assertSameOriginJson(req, baseUrl());
  const caller = await resolveCaller(req.headers);
  if (!caller) throw new UnauthorizedError();
  if (!allows(caller, access))
    throw new ForbiddenError(
      caller.kind === "api_key"
        ? `This API key lacks the scope this route needs${access.scope ? ` (${access.scope})` : ""}.`
        : `This needs the ${access.role} role or higher.`,
    );
  return caller;
}
