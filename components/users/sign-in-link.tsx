"use client";
import { CopyButton } from "@/components/ui/copy-button";

/** Shows a freshly made sign-in link once, with a copy button. */
export function SignInLink({ email, link }: { email: string; link: string }) {
  return (
    <div role="status" className="space-y-2 rounded-md bg-emerald-50 p-3 text-sm text-emerald-900">
      <p>
        One-time sign-in link for <strong>{email}</strong> (valid for an hour, works once). Charter
        sends no e-mail: pass it on yourself.
      </p>
      <input
        readOnly
        aria-label={`Sign-in link for ${email}`}
        value={link}
        className="w-full rounded border border-emerald-200 bg-white px-2 py-1 font-mono text-xs"
        onFocus={(e) => e.target.select()}
      />
      <CopyButton text={link} label="Copy link" />
    </div>
  );
}
