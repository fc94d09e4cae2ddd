import type http from "node:http";
import { BlockList, isIP } from "node:net";
import { env } from "@/lib/env";
import { beforeEachRequest } from "@/lib/node-requests";

/**
 * The header Charter's server writes on every request with the client's address, over
 * any value the client sent. Better Auth's rate limits read only this header
 * (lib/auth/auth.ts), so a rotating X-Forwarded-For gets no fresh budget.
 */
export const CLIENT_IP_HEADER = "x-charter-client-ip";

/** "::ffff:10.0.0.1" is 10.0.0.1; anything that is not an address is null. */
function normalize(address: string | undefined): string | null {
  if (!address) return null;
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed)?.[1];
  const plain = mapped ?? trimmed;
  return isIP(plain) === 0 ? null : plain;
}

/** A BlockList of CHARTER_TRUSTED_PROXIES' entries (checked by lib/env.ts), or null when none are set. */
export function trustedProxyList(entries: readonly string[] | undefined): BlockList | null {
  if (!entries || entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  return list.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
}

/**
 * The client's address: the socket's peer, unless that peer is a trusted proxy; then
 * X-Forwarded-For is walked from the right, past trusted proxies, to the first address
 * that is not one. Null only when the socket has no address (it closed).
 */
export function clientIpFor(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: BlockList | null,
): string | null {
  const direct = normalize(peer);
  if (!direct || !trusted || !isTrusted(trusted, direct) || !forwardedFor) return direct;
  const hops = forwardedFor.split(",").map((hop) => normalize(hop));
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    const hop = hops[i];
    // A hop that is not an address was written by someone untrusted: stop at the proxy that forwarded it.
    if (!hop) return direct;
    if (!isTrusted(trusted, hop)) return hop;
  }
  return direct;
}

/** Writes CLIENT_IP_HEADER on an incoming request from its socket, replacing whatever the client sent. */
export function stampClientIp(req: http.IncomingMessage, trusted: BlockList | null): void {
  const forwarded = req.headers["x-forwarded-for"];
  const ip = clientIpFor(
    req.socket.remoteAddress,
    Array.isArray(forwarded) ? forwarded.join(",") : forwarded,
    trusted,
  );
  if (ip) req.headers[CLIENT_IP_HEADER] = ip;
  else delete req.headers[CLIENT_IP_HEADER];
}

/**
 * Makes every HTTP server in this process stamp CLIENT_IP_HEADER before it handles a
 * request (lib/node-requests.ts: `next start` owns the server and its socket).
 */
export function installClientIpStamp(): void {
  const trusted = trustedProxyList(env().CHARTER_TRUSTED_PROXIES);
  beforeEachRequest("client-ip stamp", (req, _res, pass) => {
    stampClientIp(req, trusted);
    pass();
  });
}
