import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Constitution, EvalSet, LexicalIndexSnapshot } from "@/lib/constitution";
import { env } from "@/lib/env";

/**
 * Parsed constitution versions kept on disk for the bundled CLI. Parsing a version's YAML
 * (core, overlays, evals) is most of a short command's time (`charter retrieve` spent
 * 0.6 s of 2.4 s in the yaml library), and a version never changes: its parse is keyed
 * by the version's content hash and by the engine build that parsed it, so a changed
 * engine never reads an older engine's result. The build id is set by scripts/build-cli.mjs
 * (a hash of lib/constitution's sources); the server and tsx runs have none and keep
 * their parses in memory only.
 */
declare const __CHARTER_ENGINE_BUILD__: string | undefined;
const BUILD = typeof __CHARTER_ENGINE_BUILD__ === "string" ? __CHARTER_ENGINE_BUILD__ : undefined;

export type ParsedVersion = { constitution: Constitution; evals: EvalSet };
type Snapshot = ParsedVersion & { contentHash: string; build: string };

/**
 * A snapshot's key: the files' content hash (`<sha256>`), or `row-<sha256>`, PostgreSQL's
 * digest of the stored row's files, for a reader that would rather not fetch the files
 * (lib/db/head-reader.ts). Equal digests mean equal stored files, so either key names one parse.
 */
const KEY = /^(row-)?[0-9a-f]{64}$/;

/** The per-user cache directory (never a shared temporary directory: a planted file would be served). */
function snapshotDir(): string {
  return path.join(
    env().XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"),
    "charter",
    "constitution",
  );
}

const fileFor = (contentHash: string, build: string, kind = "") =>
  path.join(snapshotDir(), `${contentHash}-${build}${kind}.json`);

/** Writes `data` to `file` whole (staged, then renamed); a cache that cannot be written is skipped. */
function writeWhole(file: string, data: unknown): void {
  try {
    mkdirSync(snapshotDir(), { recursive: true, mode: 0o700 });
    const staging = `${file}.${process.pid}.tmp`;
    writeFileSync(staging, JSON.stringify(data), { mode: 0o600 });
    renameSync(staging, file);
  } catch {
    // A read-only home or a full disk costs the next command a parse, nothing more.
  }
}

export const parsedSnapshots = {
  /** The parse of the version with this key (KEY), as this build made it, or null. */
  read(contentHash: string): ParsedVersion | null {
    if (!BUILD || !KEY.test(contentHash)) return null;
    try {
      const snapshot = JSON.parse(readFileSync(fileFor(contentHash, BUILD), "utf8")) as Snapshot;
      if (snapshot.contentHash !== contentHash || snapshot.build !== BUILD) return null;
      return { constitution: snapshot.constitution, evals: snapshot.evals };
    } catch {
      return null;
    }
  },

  /** Keeps a parse for the next command; a cache that cannot be written is skipped silently. */
  write(contentHash: string, parsed: ParsedVersion): void {
    if (!BUILD || !KEY.test(contentHash)) return;
    writeWhole(fileFor(contentHash, BUILD), {
      contentHash,
      build: BUILD,
      ...parsed,
    } satisfies Snapshot);
  },

  /**
   * The lexical index built from the parse with this key, as this build made it, or null.
   * Beside the parse and keyed like it, so a changed version or engine never reads it.
   */
  readIndex(contentHash: string): LexicalIndexSnapshot | null {
    if (!BUILD || !KEY.test(contentHash)) return null;
    try {
      const kept = JSON.parse(readFileSync(fileFor(contentHash, BUILD, ".index"), "utf8")) as {
        contentHash?: unknown;
        build?: unknown;
        index?: LexicalIndexSnapshot;
      };
      if (kept.contentHash !== contentHash || kept.build !== BUILD || !kept.index) return null;
      return kept.index;
    } catch {
      return null;
    }
  },

  /** Keeps the lexical index built from the parse with this key; skipped silently when it cannot be written. */
  writeIndex(contentHash: string, index: LexicalIndexSnapshot): void {
    if (!BUILD || !KEY.test(contentHash)) return;
    writeWhole(fileFor(contentHash, BUILD, ".index"), { contentHash, build: BUILD, index });
  },
};
