import { resolveCaller } from "@/lib/auth/caller";
import { health as database } from "@/lib/db/health";
import { DATABASE_RETRY_AFTER_SECONDS, UnauthorizedError } from "@/lib/errors";
import { healthRoute } from "@/lib/http/api-routes";
import { route } from "@/lib/http/route";
import type { Health } from "@/lib/schemas/health";
import { serverState } from "@/lib/startup";
import { VERSION } from "@/lib/version";

export const dynamic = "force-dynamic";

/**
 * GET /api/health: `{status, db, version}`, public; a load balancer's readiness check.
 * 200 "ok" when this instance takes traffic; 503 with Retry-After while it is "starting"
 * (its ingestion path not yet warm), "draining" (SIGTERM arrived: send new work
 * elsewhere) or "degraded" (the database does not answer). With `?auth=1` it also
 * demands a session or an API key and says who the caller is (used to check credentials).
 */
export const GET = route(healthRoute, async ({ req, query, reply }) => {
  let who: Health["caller"];
  if (query.auth === "1") {
    const caller = await resolveCaller(req.headers);
    if (!caller) throw new UnauthorizedError();
    who = { kind: caller.kind, name: caller.kind === "user" ? caller.email : caller.name };
  }
  const state = serverState();
  const kind = database.kind() === "embedded" ? "embedded" : "postgres";
  // Draining answers at once, without the database: the balancer must stop sending work even if the database is slow.
  if (state === "draining")
    return reply(503, { status: "draining", db: kind, version: VERSION }, { "retry-after": "1" });
  const health = await database.check();
  // Not ready before the ingestion path answered once: a prompt sent now would miss the hook's budget.
  if (health.ok && state === "starting")
    return reply(
      503,
      { status: "starting", db: health.db, version: VERSION },
      { "retry-after": "1" },
    );
  return reply(
    health.ok ? 200 : 503,
    {
      status: health.ok ? "ok" : "degraded",
      db: health.db,
      version: VERSION,
      ...(who ? { caller: who } : {}),
    },
    health.ok ? {} : { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) },
  );
});
