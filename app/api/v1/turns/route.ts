import { turns } from "@/lib/db/turns";
import { turnsRoute } from "@/lib/http/api-routes";
import { route } from "@/lib/http/route";
import { dayRange } from "@/lib/schemas/turns";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/turns: scored turns, newest first, keyset-paginated (`cursor` from the
 * previous page's `next`). Every parameter is validated by route() against the
 * contract's query schema: a bad one is a 422 naming it.
 */
export const GET = route(turnsRoute, ({ query: f }) =>
  turns.list(
    {
      sessionId: f.session,
      ...dayRange(f),
      minTotal: f.min,
      maxTotal: f.max,
      principle: f.principle,
      below: f.below,
    },
    { cursor: f.cursor },
  ),
);
