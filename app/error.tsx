"use client";

import { useEffect, useState } from "react";

/**
 * Shown when a page fails on the server: a message and a digest to find in the server
 * log, never a stack trace. The error's own text is hidden in production, so the page
 * asks /api/health whether the database is the cause, to say so plainly.
 */
export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  const [databaseDown, setDatabaseDown] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    fetch("/api/health", { cache: "no-store", signal: controller.signal })
      .then((res) => res.json() as Promise<{ status?: string }>)
      .then((health) => setDatabaseDown(health.status === "degraded"))
      .catch(() => undefined);
    return () => controller.abort();
  }, [error]);

  return (
    <main className="mx-auto max-w-lg px-6 py-24 text-center">
      <h1 className="text-2xl font-semibold">
        {databaseDown ? "The database is unavailable" : "Something went wrong"}
      </h1>
      <p className="mt-3 text-slate-600">
        {databaseDown
          ? "Charter cannot reach its database right now, or it is too busy to answer. Try again in a few seconds."
          : "The server could not show this page."}{" "}
        {error.digest ? `Reference: ${error.digest}.` : null}
      </p>
      <button
        type="button"
        onClick={reset}
        className="mt-6 text-sm font-medium text-indigo-600 hover:underline"
      >
        Try again
      </button>
    </main>
  );
}
