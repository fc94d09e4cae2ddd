import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refuseForbiddenMethod } from "./method-guard";

let server: http.Server;
let port = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (refuseForbiddenMethod(req, res)) return;
    res.end("handled");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function ask(method: string): Promise<{ status: number; allow?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: "/api/health" }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("refuseForbiddenMethod", () => {
  it.each(["TRACE"])("answers %s with 405, an Allow header and a JSON error", async (method) => {
    const answer = await ask(method);
    expect(answer.status).toBe(405);
    expect(answer.allow).toContain("GET");
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: "method_not_allowed", message: `The ${method} method is not allowed here.` },
    });
  });

  it.each(["GET", "POST", "PUT", "DELETE", "OPTIONS"])(
    "leaves %s to the server",
    async (method) => {
      expect((await ask(method)).status).toBe(200);
    },
  );
});
