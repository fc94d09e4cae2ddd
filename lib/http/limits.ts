import "server-only";
import { BadRequestError, PayloadTooLargeError } from "@/lib/errors";
import { errorResponse } from "./route";

/**
 * Bounds on what a JSON request body may cost the server before a schema sees it,
 * applied while the body streams in (a chunked body declares no length): its bytes,
 * and its structural tokens, since parsed objects cost far more memory than their
 * text (16 MiB of `[{},{},…]` parses into over 500 MB).
 */
export type BodyLimits = { bytes: number; tokens: number };

/** A body parsed as JSON, or the 413 for one over a limit (whose rest was never read). */
export type JsonBody = { value: unknown } | { refused: Response };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** `{`, `[`, `,` and `:`: each starts a container or one more member, element or value. */
const STRUCTURAL = new Uint8Array(256);
for (const byte of [0x7b, 0x5b, 0x2c, 0x3a]) STRUCTURAL[byte] = 1;

/**
 * Counts structural tokens (`{`, `[`, `,`, `:` outside strings) of JSON text fed in
 * chunks split anywhere: about the number of values and keys it parses into. Works on
 * any bytes; malformed JSON is left for JSON.parse to refuse.
 */
export class JsonTokenCounter {
  count = 0;
  private inString = false;
  private escaped = false;

  add(bytes: Uint8Array): number {
    let { count, inString, escaped } = this;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i]!;
      if (escaped) escaped = false;
      else if (inString) {
        if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) inString = true;
      else count += STRUCTURAL[byte]!;
    }
    Object.assign(this, { count, inString, escaped });
    return count;
  }
}

/** How far past the limit a refused body is read and dropped, so that a client still sending can finish and read the 413. */
export const DISCARD_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The 413 for a body over a limit. What is left of the body is read and dropped first
 * (up to DISCARD_MAX_BYTES past the limit, never kept), so a client still sending gets
 * its answer instead of a broken pipe; a longer body is left unread there, and
 * `Connection: close` ends the connection once the answer is out (it cannot carry
 * another request before that body ends).
 */
async function refused(
  message: string,
  rest: AsyncIterator<Uint8Array> | null,
  read: number,
  limit: number,
): Promise<{ refused: Response }> {
  let dropped = 0;
  while (rest && read + dropped <= limit + DISCARD_MAX_BYTES) {
    const { done, value } = await rest.next();
    if (done) break;
    dropped += value.byteLength;
  }
  const response = errorResponse(new PayloadTooLargeError(message));
  response.headers.set("connection", "close");
  return { refused: response };
}

/**
 * Reads and parses a JSON body within `limits`. Past a declared length, or as soon as
 * the bytes read or their tokens pass a limit, nothing more is kept: the rest is read
 * and dropped (see `refused`) and the answer is a 413. Chunks are decoded as they come
 * (bytes that are not UTF-8 become U+FFFD), so the raw body is never held whole beside
 * its text. Not JSON: 400.
 */
export async function readJsonBody(req: Request, limits: BodyLimits): Promise<JsonBody> {
  return readJson(
    req.body ? req.body[Symbol.asyncIterator]() : null,
    req.headers.get("content-length"),
    limits,
  );
}

/**
 * readJsonBody over any stream of chunks (a Node request's `iterator({destroyOnReturn:
 * false})`) and its declared Content-Length, if any.
 */
export async function readJson(
  chunks: AsyncIterator<Uint8Array> | null,
  contentLength: string | null | undefined,
  limits: BodyLimits,
): Promise<JsonBody> {
  const declared = Number(contentLength ?? 0);
  if (declared > limits.bytes)
    return refused(
      `The request is ${declared} bytes; the limit is ${limits.bytes}.`,
      declared <= limits.bytes + DISCARD_MAX_BYTES ? chunks : null,
      0,
      limits.bytes,
    );
  const decoder = new TextDecoder();
  const tokens = new JsonTokenCounter();
  const parts: string[] = [];
  let size = 0;
  while (chunks) {
    const { done, value } = await chunks.next();
    if (done) break;
    size += value.byteLength;
    if (size > limits.bytes)
      return refused(
        `The request is over the limit of ${limits.bytes} bytes.`,
        chunks,
        size,
        limits.bytes,
      );
    if (tokens.add(value) > limits.tokens)
      return refused(
        `The request holds more than ${limits.tokens} JSON values and keys; send fewer events per request.`,
        chunks,
        size,
        limits.bytes,
      );
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  try {
    return { value: JSON.parse(parts.join("")) };
  } catch {
    throw new BadRequestError("The request body is not valid JSON.");
  }
}
