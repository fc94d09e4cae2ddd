import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_HEAP_MB_DEFAULT } from "@/lib/env-schema";
import { builtConfigEnv, nodeOptionsWithHeapCap } from "./serve";

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

describe("the configuration handed to next start (builtConfigEnv)", () => {
  const dir = () => mkdtempSync(path.join(os.tmpdir(), "charter-serve-"));

  it("is the one the build saved, as Next's standalone server hands it over", () => {
    const distDir = dir();
    const config = {
      distDir: ".next",
      poweredByHeader: false,
      experimental: { authInterrupts: true },
    };
    writeFileSync(
      path.join(distDir, "required-server-files.json"),
      JSON.stringify({ version: 1, config, files: [] }),
    );
    expect(builtConfigEnv(distDir)).toEqual({
      __NEXT_PRIVATE_STANDALONE_CONFIG:
        '{"distDir":".next","poweredByHeader":false,"experimental":{"authInterrupts":true}}',
    });
  });

  it.each([
    ["no file", null],
    ["a file that is not JSON", "{"],
    ["a file without a config", '{"version":1}'],
  ])("is nothing with %s (Next then loads next.config.ts itself)", (_, text) => {
    const distDir = dir();
    if (text !== null) writeFileSync(path.join(distDir, "required-server-files.json"), text);
    expect(builtConfigEnv(distDir)).toEqual({});
  });
});
