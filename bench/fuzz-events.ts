/**
 * Fuzz: thousands of malformed and edge-case requests against a running server
 * (loopback only), on `POST /api/v1/events` (NULs, unpaired surrogates, binary
 * content, extreme dates, deep nesting, wrong types, bad JSON, oversized, token-heavy
 * and chunked bodies) and on every read path (`GET /api/v1/turns`, the history's
 * raw file download, the dashboard pages). It prints the answers by status, the number of 5xx and of requests left
 * unanswered (both must be 0), and the server's peak resident memory (must stay under
 * 400 MB). Bounded in count and time.
 *
 * Run: npx tsx bench/fuzz-events.ts
 *   - with CHARTER_URL and CHARTER_API_KEY (scopes ingest and read) set: against that
 *     server; CHARTER_COOKIE (a signed-in admin's cookie) adds the dashboard pages,
 *     CHARTER_SERVER_PID names the process to sample (default: the one listening on
 *     the URL's port);
 *   - without: starts `charter serve` from the existing production build on a fresh
 *     PostgreSQL database at 127.0.0.1:5432 (as bench/agents.ts does), and drops it after.
 * Knobs: FUZZ_COUNT (default 6000), FUZZ_SECONDS (default 600), FUZZ_CONCURRENCY
 * (default 8), FUZZ_SEED (default 11), FUZZ_TRACE_RSS (1: the server's RSS after each huge
 * request). Exit code 1 when a goal is missed.
 */
import http from "node:http";
import {
  Cases,
  EVENTS_PATH,
  hugeRequests,
  pageRequest,
  readApiRequest,
  type FuzzRequest,
} from "./fuzz/cases";
import { random } from "./support/random";
import { givenServer, startServer, type Target } from "./fuzz/server";
import { rssBytes } from "./support/server";

const PORT = 3298;
const RSS_LIMIT = 400 * 1000 * 1000;
const REQUEST_TIMEOUT_MS = 60_000;
const MIN_REQUESTS = 5_000;

const numberEnv = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const COUNT = numberEnv("FUZZ_COUNT", 6_000);
const SECONDS = numberEnv("FUZZ_SECONDS", 600);
const CONCURRENCY = numberEnv("FUZZ_CONCURRENCY", 8);
const SEED = numberEnv("FUZZ_SEED", 11);

type Outcome = { status: number | "no answer" | "timeout"; detail?: string };

/** The requests that are not huge, COUNT in all, in a seeded order. */
function smallRequests(c: Cases, pages: boolean): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  const post = (
    group: string,
    body: string | Uint8Array,
    auth: FuzzRequest["auth"] = "key",
  ): FuzzRequest => ({ kind: "fetch", group, method: "POST", path: EVENTS_PATH, body, auth });
  const session = () => c.id("s");
  // Every poison once, so a short run still covers them.
  for (let i = 0; i < 25; i++)
    out.push(
      post(
        "event: at out of bounds or malformed",
        JSON.stringify(c.event(session(), { at: c.eventAt() })),
      ),
    );
  for (const depth of [63, 64, 65, 5_000, 100_000]) {
    for (const field of ["tool_input", "tool_response"])
      out.push(
        post(
          "event: deep nesting",
          c.eventText({ value: c.eventOf("PostToolUse", session()), deep: { field, depth } }),
        ),
      );
  }
  for (let i = 0; i < 25; i++) out.push(post("event: malformed body", c.malformedBody()));
  for (let i = 0; i < 10; i++) out.push(post("event: bytes not UTF-8", c.invalidUtf8(session())));
  out.push(post("event: no key", JSON.stringify(c.event(session())), "none"));
  while (out.length < COUNT) {
    const roll = c.rnd();
    if (roll < 0.55) {
      out.push(post("event: one, poisoned", c.eventText(c.mutatedEvent(session()))));
    } else if (roll < 0.65) {
      const s = session();
      const events = Array.from({ length: 2 + c.int(20) }, () => JSON.stringify(c.event(s)));
      events[c.int(events.length)] = c.eventText(c.mutatedEvent(s));
      out.push(post("event: batch, one poisoned", `{"events":[${events.join(",")}]}`));
    } else if (roll < 0.68) {
      out.push(post("event: bytes not UTF-8", c.invalidUtf8(session())));
    } else if (roll < 0.72) {
      out.push(post("event: malformed body", c.malformedBody()));
    } else if (roll < 0.87 || !pages) {
      out.push(readApiRequest(c));
    } else {
      out.push(pageRequest(c, c.rnd() < 0.9 ? "cookie" : "none"));
    }
  }
  return out;
}

function headersFor(target: Target, request: FuzzRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  if (request.auth === "key") headers["x-api-key"] = target.key;
  if (request.auth === "cookie" && target.cookie) headers.cookie = target.cookie;
  return headers;
}

async function send(target: Target, request: FuzzRequest): Promise<Outcome> {
  if (request.kind === "stream") return stream(target, request);
  try {
    const headers = headersFor(target, request);
    if (request.body !== undefined)
      headers["content-type"] = request.contentType ?? "application/json";
    const res = await fetch(`${target.url}${request.path}`, {
      method: request.method,
      headers,
      body: request.body as BodyInit | undefined,
      redirect: "manual",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    return { status: res.status, detail: res.status >= 500 ? text.slice(0, 300) : undefined };
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    return name === "TimeoutError"
      ? { status: "timeout" }
      : {
          status: "no answer",
          detail:
            error instanceof Error
              ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}`
              : String(error),
        };
  }
}

/** Resolves when the request can take more body, or has been answered or closed (an answered request may never drain). */
function drainedOrAnswered(req: http.ClientRequest, answered: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearInterval(poll);
      req.off("drain", done);
      req.off("close", done);
      resolve();
    };
    const poll = setInterval(() => {
      if (answered()) done();
    }, 50);
    req.once("drain", done);
    req.once("close", done);
  });
}

/** A chunked POST of up to `bytes`, written as the server reads it and stopped as soon as it answers. */
function stream(
  target: Target,
  request: Extract<FuzzRequest, { kind: "stream" }>,
): Promise<Outcome> {
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  return new Promise((resolve) => {
    let answered = false;
    const req = http.request(`${target.url}${request.path}`, {
      method: "POST",
      agent: false,
      headers: {
        ...headersFor(target, request),
        "content-type": "application/json",
        "transfer-encoding": "chunked",
      },
      timeout: REQUEST_TIMEOUT_MS,
    });
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => {
        resolve({
          status: res.statusCode ?? 0,
          detail: (res.statusCode ?? 0) >= 500 ? body.slice(0, 300) : undefined,
        });
        req.destroy();
      });
    });
    req.on("timeout", () => {
      if (!answered) resolve({ status: "timeout" });
      req.destroy();
    });
    let sent = 0;
    const unanswered = (why: string) => {
      if (!answered)
        resolve({
          status: "no answer",
          detail: `${why} after ${sent >> 20} of ${request.bytes >> 20} MiB sent`,
        });
    };
    req.on("error", (error) => unanswered(error.message));
    // A connection closed without an error or an answer must still end the request.
    req.on("close", () => unanswered("connection closed"));
    void (async () => {
      for (; !answered && sent < request.bytes; sent += chunk.length) {
        if (!req.write(chunk)) await drainedOrAnswered(req, () => answered);
      }
      if (!answered && !req.destroyed) req.end();
    })();
  });
}

async function main() {
  const target = process.env.CHARTER_URL ? givenServer(process.env) : await startServer(PORT);
  const c = new Cases(random(SEED), `${SEED}-${Date.now().toString(36)}`);
  const deadline = Date.now() + SECONDS * 1000;
  const byGroup = new Map<string, Map<string, number>>();
  const failures: string[] = [];
  let sent = 0;
  let peakRss = target.pid ? (rssBytes(target.pid) ?? 0) : 0;
  const startRss = peakRss;
  let smallPhaseRss = 0;
  const sampler = setInterval(() => {
    const rss = target.pid ? rssBytes(target.pid) : null;
    if (rss !== null) peakRss = Math.max(peakRss, rss);
  }, 100);

  const record = (request: FuzzRequest, outcome: Outcome) => {
    sent++;
    const statuses = byGroup.get(request.group) ?? new Map<string, number>();
    statuses.set(String(outcome.status), (statuses.get(String(outcome.status)) ?? 0) + 1);
    byGroup.set(request.group, statuses);
    const failed = typeof outcome.status !== "number" || outcome.status >= 500;
    if (failed && failures.length < 20) {
      const body =
        request.kind === "fetch" && request.body !== undefined
          ? Buffer.from(request.body).subarray(0, 200).toString()
          : "";
      failures.push(
        `${outcome.status} ${request.group}: ${request.path.slice(0, 200)} ${body} -> ${outcome.detail ?? ""}`,
      );
    }
    if (sent % 1000 === 0)
      console.error(`fuzz: ${sent} sent, peak RSS ${(peakRss / 1e6).toFixed(0)} MB`);
  };

  const started = performance.now();
  try {
    if (!target.cookie)
      console.error(
        "fuzz: no signed-in cookie (CHARTER_COOKIE): the dashboard pages are only requested signed out.",
      );
    const queue = smallRequests(c, target.cookie !== null);
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < queue.length && Date.now() < deadline) {
          const request = queue[next++]!;
          record(request, await send(target, request));
        }
      }),
    );
    smallPhaseRss = peakRss;
    // One at a time, so the memory they cost is not multiplied by the concurrency.
    for (const request of hugeRequests(c)) {
      if (Date.now() >= deadline) break;
      record(request, await send(target, request));
      if (process.env.FUZZ_TRACE_RSS)
        console.error(
          `fuzz: after ${request.group}: RSS ${(((target.pid ? rssBytes(target.pid) : 0) ?? 0) / 1e6).toFixed(0)} MB, peak ${(peakRss / 1e6).toFixed(0)} MB`,
        );
    }
  } finally {
    clearInterval(sampler);
    await target.stop();
  }
  const seconds = (performance.now() - started) / 1000;

  const totals = new Map<string, number>();
  console.log(
    `fuzz: ${sent} requests in ${seconds.toFixed(1)} s (seed ${SEED}, concurrency ${CONCURRENCY})`,
  );
  for (const [group, statuses] of [...byGroup].sort(([a], [b]) => a.localeCompare(b))) {
    const line = [...statuses]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, n]) => `${status}: ${n}`);
    console.log(`  ${group.padEnd(48)} ${line.join(", ")}`);
    for (const [status, n] of statuses) totals.set(status, (totals.get(status) ?? 0) + n);
  }
  const count = (match: (status: string) => boolean) =>
    [...totals].filter(([s]) => match(s)).reduce((sum, [, n]) => sum + n, 0);
  const fiveXx = count((s) => /^5\d\d$/.test(s));
  const unanswered = count((s) => s === "no answer" || s === "timeout");
  console.log(
    `by status: ${[...totals]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([s, n]) => `${s}: ${n}`)
      .join(", ")}`,
  );
  console.log(`5xx: ${fiveXx} (must be 0); unanswered: ${unanswered} (must be 0)`);
  const rssLine = target.pid
    ? `server peak RSS ${(peakRss / 1e6).toFixed(0)} MB (${(smallPhaseRss / 1e6).toFixed(0)} MB before the huge requests; at start ${(startRss / 1e6).toFixed(0)} MB, pid ${target.pid}; must stay under ${RSS_LIMIT / 1e6} MB)`
    : "server RSS not measured: set CHARTER_SERVER_PID";
  console.log(rssLine);
  for (const failure of failures) console.log(`  FAILED ${failure}`);

  const missed = [
    fiveXx > 0 && "5xx answers",
    unanswered > 0 && "unanswered requests",
    target.pid !== null && peakRss >= RSS_LIMIT && "peak RSS",
    target.pid === null && "RSS not measured",
    sent < Math.min(COUNT, MIN_REQUESTS) &&
      `fewer than ${Math.min(COUNT, MIN_REQUESTS)} requests in ${SECONDS} s`,
  ].filter(Boolean);
  if (missed.length) {
    console.log(`goals missed: ${missed.join(", ")}`);
    process.exitCode = 1;
  }
}

await main();
