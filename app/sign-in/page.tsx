import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { currentUser } from "@/lib/auth/page";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  if (await currentUser()) redirect("/");
  const { error } = await searchParams;
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-6">
      <h1 className="text-2xl font-semibold">Sign in to Charter</h1>
      <p className="mt-2 text-sm text-slate-600">
        Charter signs people in with one-time links. Ask for one below; Charter sends no e-mail, so the link is written to the server log
        for your admin to pass on. An admin can also make you a link from the Users page.
      </p>
      {error ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          That sign-in link is no longer valid: links work once and expire after an hour.
        </p>
      ) : null}
      <SignInForm />
    </main>
  );
}
