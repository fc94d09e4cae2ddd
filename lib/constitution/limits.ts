import type { ConstitutionIssue } from "./schema";

/**
 * How much a constitution may hold, in UTF-8 bytes. The CLI (`charter constitution
 * validate|import`), the dashboard editors and their server actions all check these,
 * through `parseConstitution` and the file reader; nothing else declares a limit.
 */
export const MAX_FILE_BYTES = 512 * 1024;
/** All files of one constitution together (core, overlays and eval files): about 8 times the shipped one. */
export const MAX_CONSTITUTION_BYTES = 2 * 1024 * 1024;
/** Files in one constitution: the shipped one has 27. */
export const MAX_CONSTITUTION_FILES = 200;

/** A file's size for the limits: its path and its length in UTF-8 bytes. */
export type FileSize = { path: string; bytes: number };

/** The UTF-8 length of `text` without encoding it (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (
      unit >= 0xd800 &&
      unit <= 0xdbff &&
      i + 1 < text.length &&
      (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    ) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** `512 KiB`, `2 MiB`, `50.3 MiB`, `900 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const [value, unit] =
    bytes < 1024 * 1024 ? [bytes / 1024, "KiB"] : [bytes / (1024 * 1024), "MiB"];
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
}

const atFile = (file: string, reason: string): ConstitutionIssue => ({
  file,
  line: 1,
  column: 1,
  field: "(file)",
  reason,
});

/**
 * The size limits, checked before anything is parsed: each file over MAX_FILE_BYTES,
 * the files past MAX_CONSTITUTION_FILES, and a total over MAX_CONSTITUTION_BYTES
 * (reported at the largest file, the likeliest one to shrink).
 */
export function sizeIssues(files: readonly FileSize[]): ConstitutionIssue[] {
  const sorted = [...files].sort((a, b) => a.path.localeCompare(b.path));
  const issues = sorted
    .filter((f) => f.bytes > MAX_FILE_BYTES)
    .map((f) =>
      atFile(
        f.path,
        `is ${formatBytes(f.bytes)}; a constitution file may hold at most ${formatBytes(MAX_FILE_BYTES)}`,
      ),
    );
  sorted.slice(MAX_CONSTITUTION_FILES).forEach((f, i) => {
    issues.push(
      atFile(
        f.path,
        `is file ${MAX_CONSTITUTION_FILES + i + 1} of ${sorted.length}; a constitution may have at most ${MAX_CONSTITUTION_FILES} files`,
      ),
    );
  });
  const total = sorted.reduce((sum, f) => sum + f.bytes, 0);
  const largest = sorted.reduce<FileSize | undefined>(
    (top, f) => (top && top.bytes >= f.bytes ? top : f),
    undefined,
  );
  if (total > MAX_CONSTITUTION_BYTES && largest) {
    issues.push(
      atFile(
        largest.path,
        `the constitution's ${sorted.length} files hold ${formatBytes(total)} together, over the limit of ${formatBytes(MAX_CONSTITUTION_BYTES)}; this one, the largest, holds ${formatBytes(largest.bytes)}`,
      ),
    );
  }
  return issues;
}

/** Where the first byte that is not UTF-8 sits in `bytes`, or -1 when all of it is UTF-8. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // The ranges of RFC 3629 (no overlong forms, no surrogates, nothing past U+10FFFF).
    const [length, low, high] =
      b >= 0xc2 && b <= 0xdf
        ? [2, 0x80, 0xbf]
        : b === 0xe0
          ? [3, 0xa0, 0xbf]
          : b === 0xed
            ? [3, 0x80, 0x9f]
            : b >= 0xe1 && b <= 0xef
              ? [3, 0x80, 0xbf]
              : b === 0xf0
                ? [4, 0x90, 0xbf]
                : b === 0xf4
                  ? [4, 0x80, 0x8f]
                  : b >= 0xf1 && b <= 0xf3
                    ? [4, 0x80, 0xbf]
                    : [0, 0, 0];
    if (length === 0) return i;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      const [min, max] = k === 1 ? [low, high] : [0x80, 0xbf];
      if (next === undefined || next < min || next > max) return i;
    }
    i += length;
  }
  return -1;
}

export type DecodedFile = { ok: true; text: string } | { ok: false; issue: ConstitutionIssue };

/**
 * A file's bytes as text, or an issue when they are not UTF-8 (never decoded with
 * replacement characters). A UTF-8 byte order mark is dropped. The issue names the line,
 * the column (in characters) and the byte offset of the first bad byte.
 */
export function decodeConstitutionFile(path: string, bytes: Uint8Array): DecodedFile {
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    const offset = Math.max(0, invalidUtf8Offset(bytes));
    const lineStart = offset === 0 ? 0 : bytes.lastIndexOf(0x0a, offset - 1) + 1;
    let line = 1;
    for (let i = 0; i < lineStart; i++) if (bytes[i] === 0x0a) line++;
    const column = new TextDecoder("utf-8").decode(bytes.subarray(lineStart, offset)).length + 1;
    const hex = bytes[offset]!.toString(16).toUpperCase().padStart(2, "0");
    return {
      ok: false,
      issue: {
        file: path,
        line,
        column,
        field: "(file)",
        reason: `is not UTF-8: byte 0x${hex} at byte offset ${offset} cannot start or continue a UTF-8 character; save the file as UTF-8`,
      },
    };
  }
}
