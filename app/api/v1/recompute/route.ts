import { jobs } from "@/lib/db/jobs";
import { recomputeRoute } from "@/lib/http/api-routes";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** GET /api/v1/recompute: the newest recompute job's progress. */
export const GET = route(recomputeRoute, () => jobs.latestRecompute());
