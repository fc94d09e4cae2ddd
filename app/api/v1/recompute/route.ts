import { jobs } from "@/lib/db/jobs";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** GET /api/v1/recompute: the newest recompute job's progress. */
export const GET = route({ role: "viewer", scope: "read" }, () => jobs.latestRecompute());
