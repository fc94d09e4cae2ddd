/**
 * A dynamic route segment as it was written before it went into the address: Next.js
 * hands pages the segment still percent-encoded (`sp%20ace`), so a session id holding
 * a space, `/`, `%`, `#`, `é`, ... was listed and linked but never found. proxy.ts has
 * already refused segments that are not UTF-8; should one still fail to decode, it is
 * kept as it came, and the lookup finds nothing (404).
 */
export function routeParam(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
