import http from "node:http";
import type { HookConfig } from "./config";

/** What became of a request to POST /api/v1/events, and so what to do with its events. */
export type Delivery =
  /** 2xx: the server has the events (new or already seen). */
  | { kind: "delivered"; status: number; body: unknown }
  /** No answer in time, no connection, 5xx or 429: spool and send again later. */
  | { kind: "unavailable"; reason: string }
  /** 401/403: the API key is missing or refused; sending again will not help until it is fixed. */
  | { kind: "refused"; status: number; reason: string }
  /** 400/413/422: the server will never take these events. */
  | { kind: "rejected"; status: number; reason: string }
  /** Any other 4xx: probably the wrong URL; sending again will not help until it is fixed. */
  | { kind: "misdirected"; status: number; reason: string };

export const EVENTS_PATH = "/api/v1/events";

function errorMessage(body: unknown): string | undefined {
  const error = (body as { error?: { message?: unknown } } | null)?.error;
  return typeof error?.message === "string" ? error.message : undefined;
}

export function classify(status: number, body: unknown): Delivery {
  const detail = errorMessage(body);
  const reason = `HTTP ${status}${detail ? `: ${detail}` : ""}`;
  if (status >= 200 && status < 300) return { kind: "delivered", status, body };
  if (status >= 500 || status === 429 || status === 408) return { kind: "unavailable", reason };
  if (status === 401 || status === 403) return { kind: "refused", status, reason };
  if (status === 400 || status === 413 || status === 422) return { kind: "rejected", status, reason };
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
      return { kind: "misdirected", status: 0, reason: `the server URL is not a URL: ${this.config.url}` };
    }
    const secure = url.protocol === "https:";
    if (secure) this.https ??= await import("node:https");
    const payload = Buffer.from(JSON.stringify(body));
    const headers: http.OutgoingHttpHeaders = { "content-type": "application/json", "content-length": payload.length, accept: "application/json" };
    if (this.config.apiKey) headers["x-api-key"] = this.config.apiKey;
    const request = secure ? this.https!.request : http.request;
    const ms = Math.max(1, Math.round(timeoutMs));

    return new Promise<Delivery>((resolve) => {
      const req = request(url, { method: "POST", headers, signal: AbortSignal.timeout(ms), ...(secure ? {} : { agent: this.agent }) }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", (error) => resolve(failure(error, ms)));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: kept as text for the reason
          }
          resolve(classify(res.statusCode ?? 0, parsed));
        });
      });
      req.on("error", (error) => resolve(failure(error, ms)));
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function failure(error: Error, ms: number): Delivery {
  if (error.name === "AbortError" || error.name === "TimeoutError") return { kind: "unavailable", reason: `no answer within ${ms} ms` };
  return { kind: "unavailable", reason: error.message || (error as NodeJS.ErrnoException).code || "connection failed" };
}
