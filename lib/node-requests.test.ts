import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { beforeEachRequest } from "./node-requests";

let server: http.Server;
let base = "";
const seen: string[] = [];
// The hooks are process-wide: put http.Server back as it was for the files after this one.
const originalEmit = http.Server.prototype.emit;
const installed = globalThis as unknown as { __charterBeforeRequest?: Set<string> };

beforeAll(async () => {
  beforeEachRequest("test: first installed", (req, _res, pass) => {
    seen.push(`first ${req.url}`);
    pass();
  });
  beforeEachRequest("test: answers /stop", (req, res, pass) => {
    seen.push(`second ${req.url}`);
    if (req.url === "/stop") res.end("stopped");
    else setTimeout(pass, 1); // may let a request on later
  });
  // Installed twice under one name: runs once.
  beforeEachRequest("test: answers /stop", () => {
    throw new Error("a second install under one name must not run");
  });
  server = http.createServer((req, res) => {
    seen.push(`server ${req.url}`);
    res.end("served");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  http.Server.prototype.emit = originalEmit;
  for (const name of ["test: first installed", "test: answers /stop"])
    installed.__charterBeforeRequest?.delete(name);
});

describe("beforeEachRequest", () => {
  it("runs the last installed first, each once, and the server only when every one passed", async () => {
    seen.length = 0;
    expect(await (await fetch(`${base}/go`)).text()).toBe("served");
    expect(seen).toEqual(["second /go", "first /go", "server /go"]);
    seen.length = 0;
    expect(await (await fetch(`${base}/stop`)).text()).toBe("stopped");
    expect(seen).toEqual(["second /stop"]);
  });
});
