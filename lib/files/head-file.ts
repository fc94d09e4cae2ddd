import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { LEARNED_FORMAT, type LearnedModel } from "@/lib/constitution/learn";
import type { ConstitutionFile } from "@/lib/constitution/parse";

/**
 * The head file of an embedded database: the version in force (its files, as stored), the
 * learned weights it is served with and the migrations the database had applied, kept in
 * the PGlite directory itself so that it travels with the database (a directory restored
 * from a backup brings its own). `charter retrieve` answers from it without opening PGlite.
 * lib/db/head-file-writes.ts keeps it current: removed before a save or a fit, written from
 * the database after, so what it names is never older than the last saved version.
 *
 * The file is three lines: a header with the format and the digest of the two lines after
 * it; the entry without its files (the version's id and content hash, the learned weights,
 * the migrations); then the files, parsed only when asked for (a reader whose parse of the
 * version is cached needs none). A file that is torn, edited or of another format reads as none.
 */
export const HEAD_FILE = "charter-head.json";
const FORMAT = 1;

export type HeadEntry = {
  versionId: number;
  /** The digest of `files` (lib/db/version-parse.ts: contentHash), as the writer computed it. */
  contentHash: string;
  files: ConstitutionFile[];
  /** The version's learned term weights, or null while it has none (not fitted, or fitted from no labels). */
  learned: LearnedModel | null;
  /** The migrations the database had applied when the file was written. */
  migrations: string[];
};

/** An entry as read: its files are parsed on first use. */
export type HeadRead = Omit<HeadEntry, "files"> & { files(): ConstitutionFile[] | null };

/** Where the head file of the PGlite database in `dir` lives. */
export function headFilePath(dir: string): string {
  return path.join(dir, HEAD_FILE);
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

type Header = { format: number; sha256: string };
type Meta = Omit<HeadEntry, "files">;

const isHeader = (value: unknown): value is Header =>
  isObject(value) && value.format === FORMAT && typeof value.sha256 === "string";

/** Learned weights of this engine's format (or none), judged by their shape alone: no schema library on `charter retrieve`'s path. */
export const isLearned = (value: unknown): value is LearnedModel | null =>
  value === null ||
  (isObject(value) &&
    value.format === LEARNED_FORMAT &&
    isObject(value.domains) &&
    isObject(value.principles) &&
    isObject(value.prompts));

function isMeta(value: unknown): value is Meta {
  if (!isObject(value)) return false;
  const { versionId, contentHash, learned, migrations } = value;
  return (
    Number.isInteger(versionId) &&
    (versionId as number) > 0 &&
    typeof contentHash === "string" &&
    isLearned(learned) &&
    Array.isArray(migrations) &&
    migrations.every((m) => typeof m === "string")
  );
}

const isFiles = (value: unknown): value is ConstitutionFile[] =>
  Array.isArray(value) &&
  value.every((f) => isObject(f) && typeof f.path === "string" && typeof f.text === "string");

export const headFile = {
  /** The entry kept for the database in `dir`, or null when there is none or it does not read whole. */
  read(dir: string): HeadRead | null {
    let text: string;
    try {
      text = readFileSync(headFilePath(dir), "utf8");
    } catch {
      return null;
    }
    const first = text.indexOf("\n");
    const second = first < 0 ? -1 : text.indexOf("\n", first + 1);
    if (second < 0) return null;
    try {
      const header: unknown = JSON.parse(text.slice(0, first));
      if (!isHeader(header) || header.sha256 !== sha256(text.slice(first + 1))) return null;
      const meta: unknown = JSON.parse(text.slice(first + 1, second));
      if (!isMeta(meta)) return null;
      let files: ConstitutionFile[] | null | undefined;
      return {
        versionId: meta.versionId,
        contentHash: meta.contentHash,
        learned: meta.learned,
        migrations: meta.migrations,
        files() {
          if (files === undefined) {
            try {
              const value: unknown = JSON.parse(text.slice(second + 1));
              files = isFiles(value) ? value : null;
            } catch {
              files = null;
            }
          }
          return files;
        },
      };
    } catch {
      return null;
    }
  },

  /** Writes the entry whole (staged beside it, then renamed over it); false when it cannot be written. */
  write(dir: string, entry: HeadEntry): boolean {
    const file = headFilePath(dir);
    const staging = `${file}.${process.pid}.tmp`;
    try {
      const { files, ...meta } = entry;
      const body = `${JSON.stringify(meta satisfies Meta)}\n${JSON.stringify(files)}`;
      const header: Header = { format: FORMAT, sha256: sha256(body) };
      writeFileSync(staging, `${JSON.stringify(header)}\n${body}`, { mode: 0o600 });
      renameSync(staging, file);
      return true;
    } catch {
      try {
        rmSync(staging, { force: true });
      } catch {
        // left for the next write of this pid to replace
      }
      return false;
    }
  },

  /** Removes the file; throws when it exists and cannot be removed (a write must not go on then). */
  remove(dir: string): void {
    rmSync(headFilePath(dir), { force: true });
  },
};
