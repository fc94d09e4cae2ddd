import { randomUUID } from "node:crypto";
import { log } from "@/lib/log";

/**
 * Where sign-in links go. Charter sends no e-mail and writes no link to its log: a link
 * is handed back to the code that asked for it (an admin inviting someone or making a
 * link on the Users page, the first-admin link at a fresh start, `charter users
 * create-admin`), which shows or prints it in its own process. The sign-in page makes
 * no link at all (lib/auth/auth.ts answers it before the plugin runs): it tells the
 * person that the address is invited and to ask an admin.
 */
type Waiter = (url: string) => void;

/** The metadata field that ties a link to the capture that asked for it. */
const CAPTURE_FIELD = "charterCapture";

const globalLinks = globalThis as unknown as { __charterLinkWaiters?: Map<string, Waiter> };
const waiters = (globalLinks.__charterLinkWaiters ??= new Map<string, Waiter>());

/** Called by the magic-link plugin for every link it makes; `metadata` is what the request carried. */
export function deliverSignInLink(
  email: string,
  url: string,
  metadata?: Record<string, unknown>,
): void {
  const capture = metadata?.[CAPTURE_FIELD];
  const waiter = typeof capture === "string" ? waiters.get(capture) : undefined;
  if (waiter && typeof capture === "string") {
    waiters.delete(capture);
    waiter(url);
    return;
  }
  // Unreachable while only captures reach the plugin; should it happen, the link is dropped, not logged.
  log.warn(`a sign-in link for ${email} was made with nobody to hand it to; it was dropped`);
}

/** True when `metadata` names a capture that is waiting for its link (`captureSignInLink`). */
export function isCapturedRequest(metadata: unknown): boolean {
  const capture = (metadata as Record<string, unknown> | null | undefined)?.[CAPTURE_FIELD];
  return typeof capture === "string" && waiters.has(capture);
}

/**
 * Runs `request` with the metadata to pass to the magic-link plugin and returns the link
 * it made. The capture is keyed by a random id, not the address, so a link somebody asks
 * for on the sign-in page at the same moment never lands here.
 */
export async function captureSignInLink(
  email: string,
  request: (metadata: Record<string, string>) => Promise<unknown>,
): Promise<string> {
  const id = randomUUID();
  let captured: string | undefined;
  waiters.set(id, (url) => {
    captured = url;
  });
  try {
    await request({ [CAPTURE_FIELD]: id });
  } finally {
    waiters.delete(id);
  }
  if (!captured) throw new Error(`No sign-in link was issued for ${email}.`);
  return captured;
}
