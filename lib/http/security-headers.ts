/**
 * The security headers of every response. Pages get a Content-Security-Policy with a
 * fresh nonce (set by proxy.ts); API answers and static assets, which run no script,
 * get a policy that allows nothing. Pure: proxy.ts, the route wrapper and
 * next.config.ts all read it.
 */

/** Headers every response carries, whatever it is. */
export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
};

/** Sent only over https: a browser ignores it over http, and an http-only install must stay reachable. */
export const HSTS_HEADER = {
  key: "strict-transport-security",
  value: "max-age=63072000; includeSubDomains",
} as const;

/** For JSON answers and files: nothing may run, load or frame them. */
export const NO_CONTENT_CSP =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The request header carrying the page's nonce to server components (Next reads the nonce from the CSP request header itself). */
export const NONCE_HEADER = "x-nonce";

/**
 * The policy of a page. Scripts run only with this response's nonce ('strict-dynamic'
 * lets Next's own scripts load its chunks). Styles allow 'unsafe-inline': React and
 * recharts render `style` attributes on the server and CodeMirror adds <style>
 * elements at run time; a style cannot run code. Development adds 'unsafe-eval',
 * which React's dev build needs; https adds upgrade-insecure-requests.
 */
export function pageCsp(nonce: string, options: { dev: boolean; https: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

/**
 * True when the request reached Charter over https: its URL says so, or the proxy
 * in front says so in X-Forwarded-Proto (a forged value only adds HSTS to an
 * http answer, which browsers ignore).
 */
export function servedOverHttps(req: { url: string; headers: Headers }): boolean {
  if (req.url.startsWith("https:")) return true;
  return req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https";
}

/** Sets the security headers on a response's headers; `csp` is the page policy, or the one that allows nothing. */
export function setSecurityHeaders(
  headers: Headers,
  options: { csp: string; https: boolean },
): void {
  for (const [key, value] of Object.entries(BASE_SECURITY_HEADERS)) headers.set(key, value);
  headers.set("content-security-policy", options.csp);
  if (options.https) headers.set(HSTS_HEADER.key, HSTS_HEADER.value);
}
