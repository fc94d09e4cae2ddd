import { z } from "zod";
import { constitutionVersions } from "@/lib/db/constitution";
import { NotFoundError, validationErrorFrom } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { queryIntIdSchema } from "@/lib/schemas/query";

export const dynamic = "force-dynamic";

const rawFileSchema = z.object({
  version: queryIntIdSchema,
  path: z.string().min(1).max(300),
});

/**
 * GET /constitution/history/raw?version=N&path=overlays/x.yaml: one file of a version,
 * byte for byte as stored, as a download. The history page shows bounded diffs and links
 * here for the whole file.
 */
export const GET = route({ role: "viewer", scope: "read" }, async ({ req }) => {
  const parsed = rawFileSchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) throw validationErrorFrom(parsed.error.issues);
  const { version, path } = parsed.data;
  const file = (await constitutionVersions.get(version)).files.find((f) => f.path === path);
  if (!file) throw new NotFoundError(`Version ${version} has no file ${path}.`);
  const name = `v${version}-${path.replaceAll("/", "-")}`.replace(/[^A-Za-z0-9._-]/g, "_");
  return new Response(file.text, {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "x-content-type-options": "nosniff",
    },
  });
});
