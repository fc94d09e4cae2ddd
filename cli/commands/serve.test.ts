import { describe, expect, it } from "vitest";
import { SERVER_HEAP_MB_DEFAULT } from "@/lib/env-schema";
import { nodeOptionsWithHeapCap } from "./serve";

describe("the server's heap cap (CHARTER_SERVER_HEAP_MB)", () => {
  it.each([
    [undefined, SERVER_HEAP_MB_DEFAULT, `--max-old-space-size=${SERVER_HEAP_MB_DEFAULT}`],
    ["--enable-source-maps", 512, "--enable-source-maps --max-old-space-size=512"],
    // The user's own cap wins, whatever CHARTER_SERVER_HEAP_MB says.
    ["--max-old-space-size=2048", 512, "--max-old-space-size=2048"],
    ["--trace-gc --max-old-space-size=1024", 384, "--trace-gc --max-old-space-size=1024"],
    // 0 leaves Node's own limit.
    [undefined, 0, undefined],
    ["--enable-source-maps", 0, "--enable-source-maps"],
  ])("NODE_OPTIONS %j with a %i MB cap gives %j", (own, heapMb, expected) => {
    expect(nodeOptionsWithHeapCap(own, heapMb).NODE_OPTIONS).toBe(expected);
  });
});
