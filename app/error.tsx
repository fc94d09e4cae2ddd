"use client";

/** Shown when a page fails on the server: a message and a digest to find in the server log, never a stack trace. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="mx-auto max-w-lg px-6 py-24 text-center">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="mt-3 text-slate-600">The server could not show this page. {error.digest ? `Reference: ${error.digest}.` : null}</p>
      <button type="button" onClick={reset} className="mt-6 text-sm font-medium text-indigo-600 hover:underline">
        Try again
      </button>
    </main>
  );
}
