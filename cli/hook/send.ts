import http from "node:http";
import type { HookConfig } from "./config";

/**
 * What became of a request to POST /api/v1/events, and so what to do with its events.
 * Only "delivered" and "rejected" take an event out of the spool: every other answer is
 * a fault of the server, the network or the settings, and the event waits for it to pass.
 */
export type Delivery =
  /** 2xx with Charter's answer ({accepted, duplicates, results}): the server has the events (new or already seen). */
  | { kind: "delivered"; status: number; body: unknown }
  /** No answer in time, no connection, an answer cut off, 5xx, 408 or 429: spool and send again later. */
  | { kind: "unavailable"; reason: string }
  /** 401/403: the API key is missing or refused; the events wait until it is fixed. */
  | { kind: "refused"; status: number; reason: string }
  /** 400/409/413/422: the server will never take these events as they are. */
  | { kind: "rejected"; status: number; reason: string; body: unknown }
  /**
   * Any other answer (404, 405, a redirect, a 2xx that is not Charter's answer, a proxy's
   * HTML page say, a bad URL): probably the wrong URL; the events wait until it is fixed.
   */
  | { kind: "misdirected"; status: number; reason: string };

export const EVENTS_PATH = "/api/v1/events";

/** Statuses that blame the events themselves (one event, when a batch is sent one at a time). */
const REJECTING = new Set([400, 409, 413, 422]);

function errorMessage(body: unknown): string | undefined {
  const error = (body as { error?: { message?: unknown } } | null)?.error;
  return typeof error?.message === "string" ? error.message : undefined;
}

/** Whether a body is Charter's answer to POST /api/v1/events (lib/schemas/events.ts, eventsResponseSchema). */
function isEventsAnswer(body: unknown): boolean {
  if (!body || typeof body !== "object" || Array.isArray(body)) return false;
  const { accepted, duplicates, results } = body as Record<string, unknown>;
  return typeof accepted === "number" && typeof duplicates === "number" && Array.isArray(results);
}

/**
 * A 2xx that is not Charter's answer. Only an acknowledgement the hook can read takes an
 * event out of the spool: a proxy's or portal's page (HTML) answered with 200 has not
 * stored anything, and a body cut short may not have either.
 */
function notAnAnswer(status: number, body: unknown): Delivery {
  if (typeof body === "string" && /^\s*[[{]/.test(body))
    return {
      kind: "unavailable",
      reason: `HTTP ${status} with an answer cut short (${body.length} characters of JSON that does not end)`,
    };
  const what =
    body === undefined || body === ""
      ? "an empty body"
      : typeof body !== "string"
        ? "JSON of another shape"
        : /^\s*</.test(body)
          ? "an HTML page"
          : "a body that is not JSON";
  return {
    kind: "misdirected",
    status,
    reason: `HTTP ${status} with ${what}, not Charter's answer`,
  };
}

/** The delivery class of an HTTP answer; `body` is the parsed JSON, or the text when it is not JSON. See Delivery. */
export function classify(status: number, body: unknown): Delivery {
  const detail = errorMessage(body);
  const reason = `HTTP ${status}${detail ? `: ${detail}` : ""}`;
  if (status >= 200 && status < 300)
    return isEventsAnswer(body) ? { kind: "delivered", status, body } : notAnAnswer(status, body);
  if (status >= 500 || status === 429 || status === 408) return { kind: "unavailable", reason };
  if (status === 401 || status === 403) return { kind: "refused", status, reason };
  if (REJECTING.has(status)) return { kind: "rejected", status, reason, body };
  return { kind: "misdirected", status, reason };
}

/** One sender per hook run: it keeps its connection open between requests and closes it at the end. */
export class EventSender {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private https: typeof import("node:https") | undefined;

  constructor(private readonly config: Pick<HookConfig, "url" | "apiKey">) {}

  get endpoint(): string {
    return `${this.config.url}${EVENTS_PATH}`;
  }

  /** POSTs a JSON body; the request is abandoned after `timeoutMs`. Never throws. */
  async post(body: unknown, timeoutMs: number): Promise<Delivery> {
    let url: URL;
    try {
      url = new URL(this.endpoint);
    } catch {
      return {
        kind: "misdirected",
        status: 0,
        reason: `the server URL is not a URL: ${this.config.url}`,
      };
    }
    const secure = url.protocol === "https:";
    if (secure) this.https ??= await import("node:https");
    const payload = Buffer.from(JSON.stringify(body));
    // x-charter-client: the server records the session's source as "hook" (app/api/v1/events/route.ts).
    const headers: http.OutgoingHttpHeaders = {
      "content-type": "application/json",
      "content-length": payload.length,
      accept: "application/json",
      "x-charter-client": "hook",
    };
    if (this.config.apiKey) headers["x-api-key"] = this.config.apiKey;
    const request = secure ? this.https!.request : http.request;
    const ms = Math.max(1, Math.round(timeoutMs));

    return new Promise<Delivery>((settle) => {
      let req: http.ClientRequest | undefined;
      // A plain timer rather than AbortSignal.timeout: the hook starts without the abort machinery.
      const timer = setTimeout(() => {
        resolve({ kind: "unavailable", reason: `no answer within ${ms} ms` });
        req?.destroy();
      }, ms);
      // The first outcome counts; what the destroyed request says afterwards does not.
      const resolve = (delivery: Delivery) => {
        clearTimeout(timer);
        settle(delivery);
      };
      try {
        req = request(
          url,
          { method: "POST", headers, ...(secure ? {} : { agent: this.agent }) },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            // The connection closed before the body was whole (Node says "aborted").
            res.on("error", (error) =>
              resolve({
                kind: "unavailable",
                reason: `the answer was cut short (${error.message})`,
              }),
            );
            res.on("end", () => {
              if (!res.complete) {
                resolve({ kind: "unavailable", reason: "the answer was cut short" });
                return;
              }
              const text = Buffer.concat(chunks).toString("utf8");
              let parsed: unknown = text;
              try {
                parsed = text ? JSON.parse(text) : undefined;
              } catch {
                // not JSON: kept as text for the reason
              }
              resolve(classify(res.statusCode ?? 0, parsed));
            });
          },
        );
      } catch (error) {
        // http.request throws at once for a URL it cannot use (ftp:, say).
        resolve({
          kind: "misdirected",
          status: 0,
          reason: `cannot send to ${this.endpoint}: ${(error as Error).message}`,
        });
        return;
      }
      req.on("error", (error) => resolve(failure(error)));
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function failure(error: Error): Delivery {
  return {
    kind: "unavailable",
    reason: error.message || (error as NodeJS.ErrnoException).code || "connection failed",
  };
}

/** An answer that leaves the events waiting in the spool. */
export type Failure = Exclude<Delivery, { kind: "delivered" | "rejected" }>;

/** The failure in one clause, with what to fix when a person has to. */
export function describeFailure(failure: Failure, endpoint: string): string {
  switch (failure.kind) {
    case "unavailable":
      return `server unreachable (${failure.reason})`;
    case "refused":
      return `the server refused the API key (${failure.reason}); set CHARTER_API_KEY or api_key in the hook config`;
    case "misdirected":
      return `unexpected answer from ${endpoint} (${failure.reason}); check CHARTER_URL`;
  }
}

/**
 * A failure a person has to fix (key, URL) is said once, until an event is delivered;
 * this names it. Undefined for the server being down, which every hook reports.
 */
export function settingsProblem(failure: Failure): string | undefined {
  return failure.kind === "unavailable" ? undefined : `${failure.kind} ${failure.status}`;
}
