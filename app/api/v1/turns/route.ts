import { decodeCursor, listTurns } from "@/lib/db/turns";
import { validationErrorFrom } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { turnFiltersSchema } from "@/lib/schemas/turns";

export const dynamic = "force-dynamic";

/** GET /api/v1/turns: scored turns, newest first, keyset-paginated (`cursor` from the previous page's `next`). */
export const GET = route({ role: "viewer", scope: "read" }, async ({ req }) => {
  const parsed = turnFiltersSchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) throw validationErrorFrom(parsed.error.issues);
  const f = parsed.data;
  return listTurns(
    {
      sessionId: f.session,
      from: f.from ? new Date(`${f.from}T00:00:00Z`) : undefined,
      to: f.to ? new Date(new Date(`${f.to}T00:00:00Z`).getTime() + 86_400_000) : undefined,
      minTotal: f.min,
      maxTotal: f.max,
      principle: f.principle,
      below: f.below,
    },
    { cursor: decodeCursor(f.cursor) },
  );
});
