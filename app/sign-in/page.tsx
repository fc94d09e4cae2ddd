import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { currentUser } from "@/lib/auth/page";

export const metadata: Metadata = { title: "Sign in" };

/**
 * What the sign-in page says for each `?error=` a sign-in link can land with: Better
 * Auth's magic-link codes, and its generic callback error. Anything else is named, as
 * text, under a general message.
 */
const LINK_ERRORS: Record<string, string> = {
  // Better Auth answers INVALID_TOKEN for a used link and for an expired one alike (it deletes both).
  INVALID_TOKEN:
    "That sign-in link was already used or has expired: a link works once, for an hour. Ask an admin for a new one on the Users page.",
  EXPIRED_TOKEN:
    "That sign-in link has expired: links are valid for an hour. Ask an admin for a new one on the Users page.",
  ATTEMPTS_EXCEEDED:
    "That sign-in link was tried too many times and no longer works. Ask an admin for a new one.",
  new_user_signup_disabled:
    "That link is for an address that is not invited to Charter: ask an admin to add you on the Users page.",
  failed_to_create_session:
    "The link was valid, but the server could not sign you in just now. Try again, or ask an admin for a new link.",
  user_not_found: "That link is for an account that no longer exists. Ask an admin.",
  failed_to_create_user:
    "The link was valid, but the server could not set up your account. Ask an admin.",
};

/** The message for an error code, and the code itself when it is not one Charter knows (shown as text, never markup). */
function linkError(code: string): { message: string; unknownCode?: string } {
  if (Object.hasOwn(LINK_ERRORS, code)) return { message: LINK_ERRORS[code]! };
  return {
    message: "That sign-in link did not work. Ask an admin for a new one.",
    unknownCode: code.slice(0, 100),
  };
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string | string[] }>;
}) {
  if (await currentUser()) redirect("/");
  const { error: raw } = await searchParams;
  const code = Array.isArray(raw) ? raw[0] : raw;
  const error = code ? linkError(code) : null;
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-6">
      <h1 className="text-2xl font-semibold">Sign in to Charter</h1>
      <p className="mt-2 text-sm text-slate-600">
        Charter signs people in with one-time links and sends no e-mail: an admin makes your link on
        the Users page and passes it on. Check below whether your address is invited.
      </p>
      {error ? (
        <div
          role="alert"
          data-testid="sign-in-error"
          className="mt-4 space-y-1 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700"
        >
          <p className="font-medium">Sign-in failed</p>
          <p>{error.message}</p>
          {error.unknownCode ? (
            <p className="font-mono text-xs">Error: {error.unknownCode}</p>
          ) : null}
        </div>
      ) : null}
      <SignInForm />
    </main>
  );
}
