import { readState } from "./state";

/** Stops the server the run started (its whole process group: charter serve and next start). */
export default async function globalTeardown(): Promise<void> {
  const { pid } = readState();
  if (!pid) return;
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      process.kill(-pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // gone
  }
}
