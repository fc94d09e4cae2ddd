import { ForbiddenError } from "@/lib/errors";

/** Methods that change something: a browser's cookie may drive them only from Charter's own pages. */
export const STATE_CHANGING_METHODS: ReadonlySet<string> = new Set([
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
]);

/** What the origin check reads of a request: a Web Request, or a Node request's head (events-direct.ts). */
export type RequestHead = Pick<Request, "method" | "url" | "headers">;

const API_KEY_HINT =
  "Agents and scripts send an API key (x-api-key or Authorization: Bearer) instead.";

function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * The hosts a request may come from: the configured base URL's, and the one the
 * request was sent to (Host, or X-Forwarded-Host behind a proxy). A page elsewhere
 * cannot forge either: a browser sets Host itself, and a custom header needs a CORS
 * preflight that Charter never grants.
 */
function ownHosts(req: RequestHead, ownOrigin: string): Set<string> {
  const forwarded = req.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  return new Set(
    [
      hostOf(ownOrigin),
      hostOf(req.url),
      req.headers.get("host")?.toLowerCase() ?? null,
      forwarded?.toLowerCase() ?? null,
    ].filter((h): h is string => Boolean(h)),
  );
}

/** Where a browser says the request comes from: Origin, else Sec-Fetch-Site, else Referer. */
function refusal(req: RequestHead, own: Set<string>): string | null {
  const origin = req.headers.get("origin");
  if (origin !== null) {
    const host = hostOf(origin);
    return host !== null && own.has(host)
      ? null
      : `this request came from ${origin === "null" ? "an opaque origin (Origin: null)" : origin}`;
  }
  const site = req.headers.get("sec-fetch-site");
  if (site !== null)
    return site.trim().toLowerCase() === "same-origin"
      ? null
      : `this request came from another site (Sec-Fetch-Site: ${site})`;
  const referer = req.headers.get("referer");
  if (referer === null) return "this request names no Origin, Sec-Fetch-Site or Referer";
  const host = hostOf(referer);
  return host !== null && own.has(host)
    ? null
    : `this request came from ${host ?? "an unreadable Referer"}`;
}

/**
 * Refuses (403) a state-changing request that a session cookie authenticates unless
 * it is same-origin JSON: Origin (or, when absent, Sec-Fetch-Site: same-origin, or a
 * Referer) must be Charter's own, and Content-Type application/json, which a page
 * elsewhere can send only after a CORS preflight. Requests with an API key, without a
 * cookie, or that change nothing are not concerned.
 */
export function assertSameOriginJson(req: RequestHead, ownOrigin: string): void {
  if (!STATE_CHANGING_METHODS.has(req.method.toUpperCase())) return;
  if (!req.headers.get("cookie")) return;
  const why = refusal(req, ownHosts(req, ownOrigin));
  if (why)
    throw new ForbiddenError(
      `A signed-in browser may change data only from Charter's own pages (${new URL(ownOrigin).origin}); ${why}. ${API_KEY_HINT}`,
    );
  const type = req.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== "application/json") {
    throw new ForbiddenError(
      `A signed-in browser must send JSON (Content-Type: application/json); this request sent ${type ? type : "no Content-Type"}. ${API_KEY_HINT}`,
    );
  }
}
