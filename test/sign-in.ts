import { auth } from "@/lib/auth/auth";
import { issueSignInLink } from "@/lib/auth/bootstrap";

/**
 * Signs an existing user in the way a person does, by opening a fresh sign-in link
 * through Better Auth's handler, and returns the session cookie as a `Cookie` header
 * value ("name=value").
 */
export async function sessionCookie(email: string): Promise<string> {
  const res = await auth().handler(new Request(await issueSignInLink(email)));
  const cookie = res.headers.getSetCookie().find((c) => c.includes("session_token="));
  if (!cookie) throw new Error(`Signing ${email} in set no session cookie (status ${res.status}).`);
  return cookie.split(";")[0]!;
}
