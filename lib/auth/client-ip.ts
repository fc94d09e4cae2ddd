import http from "node:http";
import { BlockList, isIP } from "node:net";
import { env } from "@/lib/env";

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

const globalStamp = globalThis as unknown as { __charterClientIpStamp?: boolean };

/**
 * Makes every HTTP server in this process stamp CLIENT_IP_HEADER before it handles a
 * request. `next start` owns the server and its socket, and a route handler never sees
 * the socket, so the stamp is added where Node hands the request to the server.
 */
export function installClientIpStamp(): void {
  if (globalStamp.__charterClientIpStamp) return;
  globalStamp.__charterClientIpStamp = true;
  const trusted = trustedProxyList(env().CHARTER_TRUSTED_PROXIES);
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emitWithClientIp(
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ): boolean {
    if (event === "request") stampClientIp(args[0] as http.IncomingMessage, trusted);
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as typeof emit;
}
