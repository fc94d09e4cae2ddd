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
export type JsonBody = { value: unknown } | { refused: Response; rest?: BodyRest };

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

/** What is left of a refused body: read on, and dropped, by whoever answers (see discardRest). */
export type BodyRest = { chunks: AsyncIterator<Uint8Array> | null; read: number; limit: number };

/**
 * Reads what is left of a refused body and drops it, up to `maxBytes` past the limit
 * (DISCARD_MAX_BYTES unless given); false when there was more (the connection cannot
 * carry another request).
 */
export async function discardRest(
  { chunks, read, limit }: BodyRest,
  maxBytes = DISCARD_MAX_BYTES,
): Promise<boolean> {
  let dropped = 0;
  while (chunks) {
    if (read + dropped > limit + maxBytes) return false;
    const { done, value } = await chunks.next();
    if (done) return true;
    dropped += value.byteLength;
  }
  return false;
}

/**
 * The 413 for a body over a limit (other readers of bounded bodies use it too). By default what is left of the body is read and
 * dropped first (discardRest), so a client still sending gets its answer instead of a
 * broken pipe, and `Connection: close` ends the connection once the answer is out (it
 * cannot carry another request before a longer body ends). With `drainFirst: false`
 * the answer comes at once and the caller drops the rest after it (`rest`).
 */
export async function refused(
  message: string,
  rest: BodyRest,
  drainFirst: boolean,
): Promise<Extract<JsonBody, { refused: Response }>> {
  const response = errorResponse(new PayloadTooLargeError(message));
  if (!drainFirst) return { refused: response, rest };
  await discardRest(rest);
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
  { drainFirst = true }: { drainFirst?: boolean } = {},
): Promise<JsonBody> {
  const declared = Number(contentLength ?? 0);
  const limit = limits.bytes;
  if (declared > limit)
    return refused(
      `The request is ${declared} bytes; the limit is ${limit}.`,
      { chunks, read: 0, limit },
      drainFirst,
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
        `The request is over the limit of ${limit} bytes.`,
        { chunks, read: size, limit },
        drainFirst,
      );
    if (tokens.add(value) > limits.tokens)
      return refused(
        `The request holds more than ${limits.tokens} JSON values and keys; send fewer events per request.`,
        { chunks, read: size, limit },
        drainFirst,
      );
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  const text = parts.join("");
  // The pieces go before parsing: a 15 MiB body is then held twice at most, not three times.
  parts.length = 0;
  try {
    return { value: JSON.parse(text) };
  } catch {
    throw new BadRequestError("The request body is not valid JSON.");
  }
}
