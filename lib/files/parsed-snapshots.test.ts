import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { resetEnv } from "@/lib/env";
import type { LexicalIndexSnapshot } from "@/lib/constitution";
import type { ParsedVersion } from "./parsed-snapshots";

const HASH = "a".repeat(64);
const parsed = {
  constitution: { core: [], overlays: {} },
  evals: { cases: [] },
} as unknown as ParsedVersion;

async function load(build: string | undefined) {
  vi.resetModules();
  (globalThis as Record<string, unknown>).__CHARTER_ENGINE_BUILD__ = build;
  if (build === undefined) delete (globalThis as Record<string, unknown>).__CHARTER_ENGINE_BUILD__;
  return (await import("./parsed-snapshots")).parsedSnapshots;
}

describe("parsed constitution snapshots", () => {
  let cache: string;
  beforeEach(() => {
    cache = mkdtempSync(path.join(os.tmpdir(), "charter-snapshots-"));
    vi.stubEnv("XDG_CACHE_HOME", cache);
    resetEnv();
  });

  it("keeps a parse for the same files and engine build, and only for them", async () => {
    const snapshots = await load("build-1");
    expect(snapshots.read(HASH)).toBeNull();
    snapshots.write(HASH, parsed);
    expect(snapshots.read(HASH)).toEqual(parsed);
    expect(snapshots.read("b".repeat(64))).toBeNull();
    expect((await load("build-2")).read(HASH)).toBeNull();
  });

  it("does nothing without an engine build (the server, tsx)", async () => {
    const snapshots = await load(undefined);
    snapshots.write(HASH, parsed);
    expect(readdirSync(cache)).toEqual([]);
    expect(snapshots.read(HASH)).toBeNull();
  });

  it("keeps a lexical index beside the parse, for the same key and engine build only", async () => {
    const snapshots = await load("build-1");
    const index = { format: 2, domains: {}, principles: {} } as unknown as LexicalIndexSnapshot;
    expect(snapshots.readIndex(HASH)).toBeNull();
    snapshots.writeIndex(HASH, index);
    expect(snapshots.readIndex(HASH)).toEqual(index);
    expect(snapshots.read(HASH)).toBeNull();
    expect(snapshots.readIndex("b".repeat(64))).toBeNull();
    expect((await load("build-2")).readIndex(HASH)).toBeNull();
    expect((await load(undefined)).readIndex(HASH)).toBeNull();
  });

  it("reads a damaged or foreign file as no snapshot", async () => {
    const snapshots = await load("build-1");
    snapshots.write(HASH, parsed);
    const file = path.join(cache, "charter", "constitution", `${HASH}-build-1.json`);
    writeFileSync(file, "{not json");
    expect(snapshots.read(HASH)).toBeNull();
    writeFileSync(
      file,
      JSON.stringify({ contentHash: "c".repeat(64), build: "build-1", ...parsed }),
    );
    expect(snapshots.read(HASH)).toBeNull();
    expect(snapshots.read("../../etc/passwd")).toBeNull();
  });
});
