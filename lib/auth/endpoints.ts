import { users } from "@/lib/db/users";
import { auth } from "./auth";
import { CLIENT_IP_HEADER } from "./client-ip";

/** Where Better Auth's handler is mounted (its default basePath). */
export const AUTH_BASE_PATH = "/api/auth";

/**
 * The Better Auth endpoints Charter's own pages call over HTTP, as "METHOD /path".
 * Everything else Better Auth or a plugin serves (admin/*, api-key/*, update-user,
 * get-session, ...) answers 404: users, roles, bans and keys change only through
 * Charter's actions, which check the role and write the audit log, and a new
 * plugin endpoint stays off until it is listed here.
 */
export const PUBLIC_AUTH_ENDPOINTS: ReadonlySet<string> = new Set([
  // The sign-in page asks for a link (components/auth/sign-in-form.tsx).
  "POST /sign-in/magic-link",
  // A sign-in link (made by the sign-in page, the Users page or the CLI) is opened.
  "GET /magic-link/verify",
  // The sign-out button (components/shell/sign-out-button.tsx).
  "POST /sign-out",
]);

/** True when `method` and the URL's path name an endpoint in PUBLIC_AUTH_ENDPOINTS. */
export function isPublicAuthEndpoint(method: string, url: string): boolean {
  const { pathname } = new URL(url);
  if (!pathname.startsWith(`${AUTH_BASE_PATH}/`)) return false;
  return PUBLIC_AUTH_ENDPOINTS.has(
    `${method.toUpperCase()} ${pathname.slice(AUTH_BASE_PATH.length)}`,
  );
}

/**
 * The /api/auth/* handler: the allowed endpoints go to Better Auth, every other request
 * is a 404 that changes nothing. A sign-out that ends a session is audited (a sign-in
 * is audited where its session is made, in lib/auth/auth.ts).
 */
export async function handleAuthRequest(req: Request): Promise<Response> {
  if (!isPublicAuthEndpoint(req.method, req.url)) {
    return Response.json(
      { error: { code: "not_found", message: "No such endpoint." } },
      { status: 404 },
    );
  }
  if (
    req.method.toUpperCase() !== "POST" ||
    new URL(req.url).pathname !== `${AUTH_BASE_PATH}/sign-out`
  )
    return auth().handler(req);
  const session = await auth()
    .api.getSession({ headers: req.headers, query: { disableRefresh: true } })
    .catch(() => null);
  const res = await auth().handler(req);
  if (session && res.ok)
    await users.recordSession("sign_out", session.user.id, {
      ip: req.headers.get(CLIENT_IP_HEADER),
    });
  return res;
}
