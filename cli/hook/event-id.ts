import { closeSync, openSync, readSync } from "node:fs";

/**
 * A random (version 4) UUID for a new event. It reads the kernel's random source rather
 * than loading node:crypto, which costs a hook about a tenth of Node's own start-up; where
 * there is no /dev/urandom (Windows), Web Crypto's randomUUID it is.
 */
export function newEventId(): string {
  const bytes = Buffer.alloc(16);
  try {
    const fd = openSync("/dev/urandom", "r");
    try {
      if (readSync(fd, bytes, 0, 16, null) !== 16) throw new Error("short read");
    } finally {
      closeSync(fd);
    }
  } catch {
    return globalThis.crypto.randomUUID();
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
