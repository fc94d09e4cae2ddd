/**
 * A scripted Charter events server for tests: POST /api/v1/events on 127.0.0.1 validates
 * the body with the real contract (lib/schemas/events.ts), remembers event ids in a store
 * that outlives a restart on the same port, and answers `{accepted, duplicates, results}`
 * like the real server. It can be made slow, made to answer an error status, or made to
 * refuse chosen events (a whole batch holding one is refused, as the server applies a
 * batch all or none); close()
 * destroys open sockets and pending delays (a delayed reply is then never sent).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { cancellableTimers } from "./timers";
import type { AddressInfo, Socket } from "node:net";
import { eventsRequestSchema, type AgentEvent, type EventResult } from "@/lib/schemas/events";

export type EventsStore = {
  /** Accepted events, in arrival order; a repeated id is not added again. */
  events: AgentEvent[];
  /** Every id seen, accepted or duplicate, in arrival order. */
  arrivals: string[];
  requests: number;
};

export function createEventsStore(): EventsStore {
  return { events: [], arrivals: [], requests: 0 };
}

export type EventsBehaviour = {
  /** Answer after this long; the events are stored on arrival, as if the slow part came after. */
  delayMs?: number;
  /** Answer this status with an error body instead of taking the events. */
  status?: number;
  /** The API key required in x-api-key; unset, any key or none is taken. */
  apiKey?: string;
  /** A reason to refuse this event with 422 (a "poison" event); undefined takes it. */
  reject?: (event: AgentEvent) => string | undefined;
  /** The additional_context for a UserPromptSubmit event. */
  context?: (event: Extract<AgentEvent, { type: "UserPromptSubmit" }>) => string | undefined;
  /** The additional_context for a SessionStart event (the constitution's core, on the real server). */
  sessionContext?: (event: Extract<AgentEvent, { type: "SessionStart" }>) => string | undefined;
};

export type EventsServer = {
  url: string;
  port: number;
  store: EventsStore;
  behaviour: EventsBehaviour;
  close(): Promise<void>;
};

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts the server on `port` (0: a free one), keeping ids in `store` (a fresh one by default). */
export async function startEventsServer(
  options: { port?: number; store?: EventsStore; behaviour?: EventsBehaviour } = {},
): Promise<EventsServer> {
  const store = options.store ?? createEventsStore();
  const behaviour: EventsBehaviour = { ...options.behaviour };
  const sockets = new Set<Socket>();
  const { wait, cancelAll } = cancellableTimers();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "POST" || req.url !== "/api/v1/events")
      return send(res, 404, {
        error: { code: "not_found", message: "No such route.", details: null },
      });
    const text = await readBody(req);
    store.requests++;
    if (behaviour.apiKey !== undefined && req.headers["x-api-key"] !== behaviour.apiKey) {
      return send(res, 401, {
        error: { code: "unauthorized", message: "Invalid API key.", details: null },
      });
    }
    if (behaviour.status)
      return send(res, behaviour.status, {
        error: { code: "scripted", message: `Scripted ${behaviour.status}.`, details: null },
      });
    let parsed;
    try {
      parsed = eventsRequestSchema.safeParse(JSON.parse(text));
    } catch {
      return send(res, 400, {
        error: { code: "bad_json", message: "The body is not JSON.", details: null },
      });
    }
    if (!parsed.success)
      return send(res, 422, {
        error: { code: "invalid", message: parsed.error.message, details: parsed.error.issues },
      });
    const events = "events" in parsed.data ? parsed.data.events : [parsed.data];
    const refusals = events.flatMap((event, index) => {
      const reason = behaviour.reject?.(event);
      return reason === undefined
        ? []
        : [{ path: "events" in parsed.data ? ["events", index] : [], message: reason }];
    });
    if (refusals.length)
      return send(res, 422, {
        error: {
          code: "invalid_event",
          message: refusals.map((r) => r.message).join("; "),
          details: refusals,
        },
      });
    const seen = new Set(store.arrivals);
    const results: EventResult[] = events.map((event) => {
      store.arrivals.push(event.id);
      if (seen.has(event.id)) return { id: event.id, status: "duplicate" };
      seen.add(event.id);
      store.events.push(event);
      const context =
        event.type === "UserPromptSubmit"
          ? behaviour.context?.(event)
          : event.type === "SessionStart"
            ? behaviour.sessionContext?.(event)
            : undefined;
      return {
        id: event.id,
        status: "accepted",
        ...(context ? { additional_context: context } : {}),
      };
    });
    if (behaviour.delayMs) await wait(behaviour.delayMs);
    const accepted = results.filter((r) => r.status === "accepted").length;
    send(res, 200, { accepted, duplicates: results.length - accepted, results });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      send(res, 500, { error: { code: "internal", message: String(error), details: null } }),
    );
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  async function shutDown(): Promise<void> {
    cancelAll();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    );
  }

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    store,
    behaviour,
    close: () => (closing ??= shutDown()),
  };
}
