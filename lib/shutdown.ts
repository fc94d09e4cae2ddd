/**
 * Work that must finish before the server process exits (SIGTERM, SIGINT): buffers of
 * acknowledged-on-commit work, listeners to close. Kept on globalThis, since Next.js
 * bundles the instrumentation hook and the routes apart and both must see one list.
 */
type Drain = { name: string; run: () => Promise<void> };

const holder = globalThis as unknown as { __charterDrains?: Drain[] };

function drains(): Drain[] {
  holder.__charterDrains ??= [];
  return holder.__charterDrains;
}

/** Registers work to run at shutdown, once per name (a module evaluated twice registers once). */
export function onDrain(name: string, run: () => Promise<void>): void {
  const list = drains();
  const existing = list.findIndex((d) => d.name === name);
  if (existing >= 0) list[existing] = { name, run };
  else list.push({ name, run });
}

/** Runs every registered drain at once; a failing one is reported and does not stop the others. */
export async function drainAll(): Promise<{ name: string; error?: unknown }[]> {
  return Promise.all(
    drains().map(async ({ name, run }) => {
      try {
        await run();
        return { name };
      } catch (error) {
        return { name, error };
      }
    }),
  );
}
