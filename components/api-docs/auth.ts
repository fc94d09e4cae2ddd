import type { OpenApiDoc, Operation } from "./types";

/** How an operation authenticates, in words (header names as `code` spans): its own `security`, else the document's. */
export function describeAuth(op: Operation, doc: OpenApiDoc): string {
  const requirements = op.security ?? doc.security ?? [];
  if (requirements.length === 0) return "None: public.";
  const ways = requirements.flatMap((req) =>
    Object.keys(req).map((name) => {
      const scheme = doc.components?.securitySchemes?.[name];
      if (scheme?.type === "apiKey" && scheme.name)
        return `an API key in the ${scheme.in ?? "header"} \`${scheme.name}\``;
      return name;
    }),
  );
  return `${ways.join(", or ")}; a signed-in dashboard session works too.`;
}
