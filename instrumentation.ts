/** Next.js calls register() once when the server starts. */
export async function register(): Promise<void> {
  // NEXT_RUNTIME is set by Next.js itself; the database and auth only run on Node.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { onServerStart } = await import("./lib/server-start");
    await onServerStart();
  }
}
