/**
 * A scripted OpenAI-compatible server for tests: POST /v1/chat/completions on 127.0.0.1 answers
 * whatever the script says, after an optional delay; so does POST /v1/embeddings when an
 * embeddings script is given (without one it answers 404, as a chat-only server would).
 * close() destroys open sockets and pending delays (a delayed reply is then never sent), so a
 * test that times out a call never hangs; it is safe to call twice.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { cancellableTimers } from "./timers";
import type { AddressInfo, Socket } from "node:net";

export type ScriptedRequest = {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: unknown;
  body: unknown;
  headers: IncomingMessage["headers"];
};

export type ScriptedReply = {
  content?: string;
  delayMs?: number;
  status?: number;
  errorBody?: unknown;
  usage?: { prompt_tokens: number; completion_tokens: number };
};

export type ScriptedEmbeddingRequest = {
  model: string;
  /** The texts, always as a list (a single string input becomes a list of one). */
  input: string[];
  encoding_format?: string;
  body: unknown;
  headers: IncomingMessage["headers"];
};

export type ScriptedEmbeddingReply = {
  /** The vector of each input text; default hashVector. */
  vector?: (input: string) => number[];
  /** Send the data items last input first (clients must order them by `index`). */
  reversed?: boolean;
  /** Replace the whole reply body (for malformed replies). */
  body?: unknown;
  delayMs?: number;
  status?: number;
  errorBody?: unknown;
  usage?: { prompt_tokens: number };
};

export type ScriptedEmbeddingScript = (
  req: ScriptedEmbeddingRequest,
) => ScriptedEmbeddingReply | Promise<ScriptedEmbeddingReply>;

export type ScriptedLlmServer = {
  /** Base URL for the SDK, e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  /** Chat completion requests. */
  requests: ScriptedRequest[];
  /** Embedding requests. */
  embeddingRequests: ScriptedEmbeddingRequest[];
  /** Distinct TCP connections accepted so far. */
  connections: () => number;
  close(): Promise<void>;
};

export const DEFAULT_USAGE = { prompt_tokens: 11, completion_tokens: 7 };

let completionSeq = 0;

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function errorBody(status: number): unknown {
  return {
    error: {
      message: `Scripted error ${status}`,
      type: status >= 500 ? "server_error" : "invalid_request_error",
      param: null,
      code: null,
    },
  };
}

function completionBody(model: string, reply: ScriptedReply): unknown {
  const usage = reply.usage ?? DEFAULT_USAGE;
  return {
    id: `chatcmpl-scripted-${++completionSeq}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: reply.content ?? "", refusal: null },
        finish_reason: "stop",
        logprobs: null,
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** A deterministic vector of a text: `dimensions` numbers in -1..1 taken from its sha256. */
export function hashVector(text: string, dimensions = 8): number[] {
  const digest = createHash("sha256").update(text).digest();
  return Array.from({ length: dimensions }, (_, i) => (digest[i % digest.length]! - 127.5) / 127.5);
}

function embeddingBody(request: ScriptedEmbeddingRequest, reply: ScriptedEmbeddingReply): unknown {
  const vector = reply.vector ?? hashVector;
  // Plain lists whatever encoding_format asks for, as many OpenAI-compatible servers answer.
  const data = request.input.map((text, index) => ({
    object: "embedding",
    index,
    embedding: vector(text),
  }));
  const tokens = reply.usage?.prompt_tokens ?? request.input.length;
  return {
    object: "list",
    model: request.model,
    data: reply.reversed ? data.reverse() : data,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/** Starts the server on a free port; the script decides each reply from the parsed request. */
export async function startScriptedLlmServer(
  script: (req: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>,
  options: { embeddings?: ScriptedEmbeddingScript } = {},
): Promise<ScriptedLlmServer> {
  const requests: ScriptedRequest[] = [];
  const embeddingRequests: ScriptedEmbeddingRequest[] = [];
  const sockets = new Set<Socket>();
  const { wait, cancelAll } = cancellableTimers();
  let accepted = 0;

  async function embed(
    req: IncomingMessage,
    res: ServerResponse,
    embeddings: ScriptedEmbeddingScript,
  ): Promise<void> {
    const body = (await readJson(req)) as {
      model?: string;
      input?: string | string[];
      encoding_format?: string;
    };
    const input = typeof body.input === "string" ? [body.input] : (body.input ?? []);
    const request: ScriptedEmbeddingRequest = {
      model: body.model ?? "",
      input,
      encoding_format: body.encoding_format,
      body,
      headers: req.headers,
    };
    embeddingRequests.push(request);
    const reply = await embeddings(request);
    if (reply.delayMs) await wait(reply.delayMs);
    if (reply.status && reply.status >= 400)
      return send(res, reply.status, reply.errorBody ?? errorBody(reply.status));
    send(res, reply.status ?? 200, reply.body ?? embeddingBody(request, reply));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === "POST" && req.url === "/v1/embeddings" && options.embeddings)
      return embed(req, res, options.embeddings);
    if (req.method !== "POST" || req.url !== "/v1/chat/completions")
      return send(res, 404, errorBody(404));
    const body = (await readJson(req)) as {
      model?: string;
      messages?: ScriptedRequest["messages"];
      response_format?: unknown;
    };
    const request: ScriptedRequest = {
      model: body.model ?? "",
      messages: body.messages ?? [],
      response_format: body.response_format,
      body,
      headers: req.headers,
    };
    requests.push(request);
    const reply = await script(request);
    if (reply.delayMs) await wait(reply.delayMs);
    if (reply.status && reply.status >= 400)
      return send(res, reply.status, reply.errorBody ?? errorBody(reply.status));
    send(res, reply.status ?? 200, completionBody(request.model, reply));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      send(res, 500, {
        error: { message: String(error), type: "server_error", param: null, code: null },
      }),
    );
  });
  server.on("connection", (socket) => {
    accepted++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
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
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddingRequests,
    connections: () => accepted,
    close: () => (closing ??= shutDown()),
  };
}
