import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { currentUser } from "@/lib/auth/page";

export const metadata: Metadata = { title: "Sign in" };

/** What the sign-in page says for each `?error=` a sign-in link can land with (Better Auth's codes). */
const LINK_ERRORS: Record<string, string> = {
  INVALID_TOKEN: "That sign-in link was already used or has expired: links work once, for an hour. Ask an admin for a new one.",
  new_user_signup_disabled: "That link is for an address that is not invited to Charter: ask an admin to add you on the Users page.",
};
const OTHER_LINK_ERROR = "That sign-in link did not work: ask an admin for a new one.";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  if (await currentUser()) redirect("/");
  const { error } = await searchParams;
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-6">
      <h1 className="text-2xl font-semibold">Sign in to Charter</h1>
      <p className="mt-2 text-sm text-slate-600">
        Charter signs people in with one-time links and sends no e-mail: an admin makes your link on the Users page and passes it on. Check
        below whether your address is invited.
      </p>
      {error ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {Object.hasOwn(LINK_ERRORS, error) ? LINK_ERRORS[error] : OTHER_LINK_ERROR}
        </p>
      ) : null}
      <SignInForm />
    </main>
  );
}
