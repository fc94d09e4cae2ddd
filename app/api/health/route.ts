import { resolveCaller } from "@/lib/auth/caller";
import { health as database } from "@/lib/db/health";
import { DATABASE_RETRY_AFTER_SECONDS, UnauthorizedError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { serverReady } from "@/lib/startup";
import { VERSION } from "@/lib/version";

export const dynamic = "force-dynamic";

/**
 * GET /api/health: `{status, db, version}`, public. With `?auth=1` it also demands a
 * session or an API key and says who the caller is (used to check credentials).
 */
export const GET = route("public", async ({ req }) => {
  let who: { kind: string; name: string } | undefined;
  if (new URL(req.url).searchParams.get("auth") === "1") {
    const caller = await resolveCaller(req.headers);
    if (!caller) throw new UnauthorizedError();
    who = { kind: caller.kind, name: caller.kind === "user" ? caller.email : caller.name };
  }
  const health = await database.check();
  // Not healthy before the retrieval index is built: a prompt sent now would miss the hook's budget.
  if (health.ok && !serverReady())
    return Response.json(
      { status: "starting", db: health.db, version: VERSION },
      { status: 503, headers: { "retry-after": "1" } },
    );
  const body = {
    status: health.ok ? "ok" : "degraded",
    db: health.db,
    version: VERSION,
    ...(who ? { caller: who } : {}),
  };
  return Response.json(body, {
    status: health.ok ? 200 : 503,
    headers: health.ok ? {} : { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) },
  });
});
