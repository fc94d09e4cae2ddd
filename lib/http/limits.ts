import "server-only";
import { BadRequestError, PayloadTooLargeError } from "@/lib/errors";

/**
 * Bounds on what a request body may cost the server before a schema sees it. The
 * byte limit holds while the body streams in (a chunked body declares no length);
 * the token limit holds before JSON.parse, whose objects cost far more memory than
 * their text (16 MiB of `[{},{},…]` parses into over 500 MB).
 */

/**
 * How long a refused body's stream stays open after the 413. Cancelling it destroys
 * the unfinished request (and lets the server drop the rest of the upload); deferred,
 * nothing between this handler and the socket can take that for a client gone away
 * before the answer is written. Unread meanwhile, the rest costs no memory: the
 * stream is pulled, so the client is held back by TCP.
 */
export const REFUSED_BODY_CLOSE_MS = 1_000;

/** Reads a request body up to `limit` bytes, refusing with 413 as soon as a declared or streamed length passes it. */
export async function readBodyWithin(req: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > limit) throw new PayloadTooLargeError(`The request is ${declared} bytes; the limit is ${limit}.`);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      setTimeout(() => void reader.cancel().catch(() => undefined), REFUSED_BODY_CLOSE_MS).unref();
      throw new PayloadTooLargeError(`The request is over the limit of ${limit} bytes.`);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** `{`, `[`, `,` and `:`: each starts a container or one more member, element or value. */
const STRUCTURAL = new Uint8Array(256);
for (const byte of [0x7b, 0x5b, 0x2c, 0x3a]) STRUCTURAL[byte] = 1;

/**
 * The number of structural tokens (`{`, `[`, `,`, `:` outside strings) in JSON text,
 * counted up to `limit + 1`: about the number of values and keys it parses into.
 * Works on any bytes; malformed JSON is left for JSON.parse to refuse.
 */
export function countJsonTokens(bytes: Uint8Array, limit: number): number {
  let count = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (STRUCTURAL[byte] === 1 && ++count > limit) {
      return count;
    }
  }
  return count;
}

/**
 * Parses a JSON body of at most `maxTokens` structural tokens: 413 past it, 400 when
 * it is not JSON. Bytes that are not UTF-8 become U+FFFD.
 */
export function parseJsonWithin(bytes: Uint8Array, maxTokens: number): unknown {
  if (countJsonTokens(bytes, maxTokens) > maxTokens) {
    throw new PayloadTooLargeError(`The request holds more than ${maxTokens} JSON values and keys; send fewer events per request.`);
  }
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new BadRequestError("The request body is not valid JSON.");
  }
}
