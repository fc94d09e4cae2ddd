import { turns } from "@/lib/db/turns";
import { validationErrorFrom } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { dayRange, turnFiltersSchema } from "@/lib/schemas/turns";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/turns: scored turns, newest first, keyset-paginated (`cursor` from the
 * previous page's `next`). Every parameter is validated: a bad one is a 422 naming it.
 */
export const GET = route({ role: "viewer", scope: "read" }, async ({ req }) => {
  const parsed = turnFiltersSchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success)
    throw validationErrorFrom(parsed.error.issues, "The query parameters are invalid.");
  const f = parsed.data;
  return turns.list(
    {
      sessionId: f.session,
      ...dayRange(f),
      minTotal: f.min,
      maxTotal: f.max,
      principle: f.principle,
      below: f.below,
    },
    { cursor: f.cursor },
  );
});
