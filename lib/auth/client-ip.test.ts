import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_IP_HEADER, clientIpFor, stampClientIp, trustedProxyList } from "./client-ip";

const proxies = trustedProxyList(["10.0.0.5", "10.1.0.0/16", "fd00::/8"]);

describe("clientIpFor", () => {
  it.each([
    [
      "no proxies configured: the peer, whatever the header says",
      "203.0.113.9",
      "1.2.3.4",
      null,
      "203.0.113.9",
    ],
    ["an untrusted peer: the peer", "203.0.113.9", "1.2.3.4", proxies, "203.0.113.9"],
    [
      "a trusted peer: the last hop before it",
      "10.0.0.5",
      "1.2.3.4, 198.51.100.7",
      proxies,
      "198.51.100.7",
    ],
    [
      "trusted hops are skipped from the right",
      "10.0.0.5",
      "1.2.3.4, 198.51.100.7, 10.1.2.3",
      proxies,
      "198.51.100.7",
    ],
    ["a trusted peer with no header: the peer", "10.0.0.5", undefined, proxies, "10.0.0.5"],
    ["a hop that is not an address: the peer", "10.0.0.5", "1.2.3.4, junk", proxies, "10.0.0.5"],
    ["an IPv4-mapped peer is IPv4", "::ffff:203.0.113.9", undefined, null, "203.0.113.9"],
    ["an IPv6 trusted range", "fd00::1", "2001:db8::7", proxies, "2001:db8::7"],
    ["no peer (socket closed)", undefined, "1.2.3.4", proxies, null],
  ])("%s", (_, peer, forwarded, trusted, expected) => {
    expect(clientIpFor(peer, forwarded, trusted)).toBe(expected);
  });
});

describe("stampClientIp on a real server", () => {
  let server: http.Server;
  let seen: (string | undefined)[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      stampClientIp(req, null);
      seen.push(req.headers[CLIENT_IP_HEADER] as string | undefined);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("overwrites a client's own header and ignores a rotating X-Forwarded-For", async () => {
    seen = [];
    const { port } = server.address() as AddressInfo;
    for (let i = 0; i < 5; i += 1) {
      await fetch(`http://127.0.0.1:${port}/`, {
        headers: { "x-forwarded-for": `198.51.100.${i}`, [CLIENT_IP_HEADER]: `203.0.113.${i}` },
      });
    }
    expect(seen).toEqual(Array(5).fill("127.0.0.1"));
  });
});
