/**
 * Only Charter's own answer takes an event out of the spool: a redirect, a proxy's HTML page
 * answered with 200, or a body cut short leaves it spooled. classify() on its own, then the
 * bundled hook against a real HTTP server that answers each way.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../errors";
import { classify, type Delivery } from "./send";
import { buildHook, lines, payload, run, setup } from "./spawn-hook";

const ANSWER = { accepted: 1, duplicates: 0, results: [] };

describe("classify", () => {
  it.each<[string, number, unknown, Delivery]>([
    ["Charter's answer", 200, ANSWER, { kind: "delivered", status: 200, body: ANSWER }],
    [
      "a proxy's HTML page",
      200,
      "<!doctype html><title>Sign in to the network</title>",
      {
        kind: "misdirected",
        status: 200,
        reason: "HTTP 200 with an HTML page, not Charter's answer",
      },
    ],
    [
      "JSON of another shape",
      200,
      { ok: true },
      {
        kind: "misdirected",
        status: 200,
        reason: "HTTP 200 with JSON of another shape, not Charter's answer",
      },
    ],
    [
      "an empty body",
      204,
      undefined,
      {
        kind: "misdirected",
        status: 204,
        reason: "HTTP 204 with an empty body, not Charter's answer",
      },
    ],
    [
      "plain text",
      200,
      "OK",
      {
        kind: "misdirected",
        status: 200,
        reason: "HTTP 200 with a body that is not JSON, not Charter's answer",
      },
    ],
    [
      "JSON cut short",
      200,
      '{"accepted":1,"dupl',
      {
        kind: "unavailable",
        reason: "HTTP 200 with an answer cut short (19 characters of JSON that does not end)",
      },
    ],
    ["a redirect", 302, "", { kind: "misdirected", status: 302, reason: "HTTP 302" }],
    ["a permanent redirect", 308, ANSWER, { kind: "misdirected", status: 308, reason: "HTTP 308" }],
  ])("%s (HTTP %i)", (_, status, body, expected) => {
    expect(classify(status, body)).toEqual(expected);
  });
});

type Reply = (res: ServerResponse) => void;

const REPLIES: [string, Reply, RegExp][] = [
  [
    "a redirect",
    (res) => res.writeHead(302, { location: "https://charter.example/api/v1/events" }).end(),
    /^charter: unexpected answer from .+ \(HTTP 302\); check CHARTER_URL; event spooled \(1 waiting\); said once until an event is delivered$/,
  ],
  [
    "a proxy's HTML page with 200",
    (res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end("<!doctype html><title>Sign in to the network</title>"),
    /^charter: unexpected answer from .+ \(HTTP 200 with an HTML page, not Charter's answer\); check CHARTER_URL; event spooled \(1 waiting\); said once until an event is delivered$/,
  ],
  [
    "a body cut off by a closed connection",
    (res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": 500 });
      res.write('{"accepted":1,', () => res.socket?.destroy());
    },
    /^charter: server unreachable \(the answer was cut short.*\); event spooled \(1 waiting\)$/,
  ],
  [
    "JSON cut short, with a length that matches",
    (res) => res.writeHead(200, { "content-type": "application/json" }).end('{"accepted":1,'),
    /^charter: server unreachable \(HTTP 200 with an answer cut short \(14 characters of JSON that does not end\)\); event spooled \(1 waiting\)$/,
  ],
];

describe("charter hook, answers that are not Charter's", () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  beforeAll(() => {
    const build = buildHook();
    expect(build.status, build.stderr).toBe(0);
  }, 60_000);

  it.each(REPLIES)(
    "%s: the event stays spooled",
    async (_, reply, line) => {
      const t = setup();
      let requests = 0;
      server = createServer((req, res) => {
        requests++;
        req.resume();
        req.on("end", () => reply(res));
      });
      await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      const result = await run(["hook", "Stop"], payload("stop.json"), t.env(port));
      expect(result).toMatchObject({ code: EXIT.ok, stdout: "" });
      expect(lines(result.stderr)).toEqual([expect.stringMatching(line)]);
      expect(requests).toBe(1);
      expect(t.spooledEvents()).toEqual([expect.objectContaining({ type: "Stop" })]);
    },
    20_000,
  );
});
