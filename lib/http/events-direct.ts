import "server-only";
import { once } from "node:events";
import type http from "node:http";
import { apiKeyFrom } from "@/lib/auth/caller";
import { beforeEachRequest } from "@/lib/node-requests";
import { authorize } from "./authorize";
import { answerEvents, EVENTS_ACCESS, EVENTS_BODY_LIMITS, EVENTS_PATH } from "./events";
import { discardRest, readJson, type BodyRest } from "./limits";
import { errorResponse, withSecurityHeaders } from "./route";

/*
 * The agents' way in, without the router. Every prompt of every agent is a POST to
 * /api/v1/events with an API key, and Next's router costs each one several times the
 * work of answering it (resolving routes, wrapping Node's request and answer in web
 * streams, tracing): under load that fixed cost, not the database, is what pushed a
 * hook past its budget. So such a request is answered where Node hands it to the
 * server, by the same code as the route (lib/http/events.ts), after the hooks that
 * run before every request (drain tracking, method guard, database gate, client-IP
 * stamp). Requests without a key (a signed-in editor's cookie, with its same-origin
 * check) and every other path go on to Next as before.
 */

/** How much of a refused body is read and dropped after its 413, at most, and for how long. */
const LINGER_MAX_BYTES = 128 * 1024 * 1024;
const LINGER_MS = 30_000;

/** Only the path itself: a query string is allowed and ignored, as by the route. */
function isEventsPath(url: string | undefined): boolean {
  if (!url?.startsWith(EVENTS_PATH)) return false;
  const rest = url.slice(EVENTS_PATH.length);
  return rest === "" || rest.startsWith("?");
}

function headersOf(req: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    } catch {
      // A header the Fetch API refuses (Node accepted it): not one the route reads.
    }
  }
  return headers;
}

async function answer(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  headers: Headers,
): Promise<void> {
  const head = {
    method: "POST",
    url: `http://${req.headers.host ?? "localhost"}${req.url}`,
    headers,
  };
  let response: Response;
  let rest: BodyRest | undefined;
  try {
    const caller = await authorize(head, EVENTS_ACCESS);
    const started = performance.now();
    const body = await readJson(
      req.iterator({ destroyOnReturn: false }),
      req.headers["content-length"],
      EVENTS_BODY_LIMITS,
      { drainFirst: false },
    );
    if ("refused" in body) ({ refused: response, rest } = body);
    else response = await answerEvents(body.value, caller, headers, started);
  } catch (error) {
    response = errorResponse(error);
  }
  response = withSecurityHeaders(response, head);
  const payload = Buffer.from(await response.arrayBuffer());
  if (res.destroyed) return;
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.setHeader("content-length", payload.byteLength);
  res.end(payload);
  // A body over the limit is answered at once, then what is left of it is read and
  // dropped (a lingering close), so that a client still sending reads its 413 rather
  // than a broken pipe, and the connection can carry the next request. A client that
  // keeps sending past LINGER_MAX_BYTES or LINGER_MS loses the connection.
  if (rest?.chunks) {
    const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
    const whole = await discardRest(rest, LINGER_MAX_BYTES).catch(() => false);
    clearTimeout(timer);
    if (!whole) {
      if (!res.writableFinished) await once(res, "finish").catch(() => undefined);
      req.socket.destroy();
    }
  }
}

/** Answers POST /api/v1/events with an API key before Next's router (see above); installed once per process. */
export function installDirectEvents(): void {
  beforeEachRequest("events without the router", (req, res, pass) => {
    if (req.method !== "POST" || !isEventsPath(req.url)) return pass();
    const headers = headersOf(req);
    if (!apiKeyFrom(headers)) return pass();
    answer(req, res, headers).catch((error: unknown) => {
      // Writing the answer failed (the client went away): nothing is left to tell it.
      if (!res.headersSent) res.destroy(error instanceof Error ? error : undefined);
    });
  });
}
