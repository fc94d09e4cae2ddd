import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { isPageRequest, unavailableGate } from "./unavailable-gate";

let server: http.Server | undefined;
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

/** A server whose pages pass the gate first; `up` says whether the database answers. */
async function serve(up: { value: boolean }, counter: { checks: number }) {
  const gate = unavailableGate(async () => {
    counter.checks += 1;
    return up.value;
  });
  server = http.createServer((req, res) => {
    void gate(req, res).then((answered) => answered || res.end("rendered"));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe("the database-unavailable gate", () => {
  it("answers a page 503 with Retry-After while the database is down, and renders it once it is back", async () => {
    const up = { value: false };
    const counter = { checks: 0 };
    const base = await serve(up, counter);
    const down = await fetch(`${base}/turns`);
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    expect(await down.text()).toContain("The database is unavailable");
    // The API answers its own 503s as JSON; assets never touch the database.
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect((await fetch(`${base}/_next/static/chunk.js`)).status).toBe(200);
    up.value = true;
    // The answer is kept for a second: wait for a fresh one by asking until it changes.
    let status = 503;
    for (let i = 0; i < 100 && status === 503; i++) {
      status = (await fetch(`${base}/turns`)).status;
      if (status === 503) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });

  it("asks the database at most once a second however many pages are asked for", async () => {
    const counter = { checks: 0 };
    let clock = 0;
    const gate = unavailableGate(
      async () => {
        counter.checks += 1;
        return true;
      },
      () => clock,
    );
    const req = { method: "GET", url: "/" } as http.IncomingMessage;
    const res = {} as http.ServerResponse;
    for (let i = 0; i < 50; i++) await gate(req, res);
    expect(counter.checks).toBe(1);
    clock = 1_000;
    await gate(req, res);
    expect(counter.checks).toBe(2);
  });

  it.each([
    ["GET", "/", true],
    ["GET", "/sessions/abc?x=1", true],
    ["HEAD", "/turns", true],
    ["POST", "/turns", false],
    ["GET", "/api/v1/turns", false],
    ["GET", "/_next/static/x.js", false],
    ["GET", "/icon.svg", false],
  ])("%s %s is a page request: %s", (method, url, page) => {
    expect(isPageRequest({ method, url })).toBe(page);
  });
});
