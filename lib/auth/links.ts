/**
 * Where sign-in links go. Charter sends no e-mail: a link is either handed back to the
 * code that asked for it (an admin inviting someone, the first-admin banner, the CLI)
 * or, when somebody asks for one on the sign-in page, written to the server log for
 * an admin to pass on.
 */
type Waiter = (url: string) => void;

const globalLinks = globalThis as unknown as { __charterLinkWaiters?: Map<string, Waiter> };
const waiters = (globalLinks.__charterLinkWaiters ??= new Map<string, Waiter>());

/** Called by the magic-link plugin for every link it makes. */
export function deliverSignInLink(email: string, url: string): void {
  const key = email.toLowerCase();
  const waiter = waiters.get(key);
  if (waiter) {
    waiters.delete(key);
    waiter(url);
    return;
  }
  console.log(`[charter] sign-in link requested for ${email}: ${url}`);
}

/** Runs `request` and returns the link it caused to be delivered for `email`. */
export async function captureSignInLink(email: string, request: () => Promise<unknown>): Promise<string> {
  const key = email.toLowerCase();
  let captured: string | undefined;
  waiters.set(key, (url) => {
    captured = url;
  });
  try {
    await request();
  } finally {
    waiters.delete(key);
  }
  if (!captured) throw new Error(`No sign-in link was issued for ${email}.`);
  return captured;
}
