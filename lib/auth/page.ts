import "server-only";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import { resolveCaller } from "./caller";
import { roleAtLeast, type Role } from "./roles";
import type { UserCaller } from "./caller";

/** The signed-in person for this request (memoized per request), or null. */
export const currentUser = cache(async (): Promise<UserCaller | null> => {
  const caller = await resolveCaller(await headers());
  return caller?.kind === "user" ? caller : null;
});

/** Guards a page: no session goes to sign-in, too low a role gets the 403 page. */
export async function requirePage(role: Role): Promise<UserCaller> {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  if (!roleAtLeast(user.role, role)) forbidden();
  return user;
}
