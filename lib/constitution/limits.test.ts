import { describe, expect, it } from "vitest";
import {
  decodeConstitutionFile,
  formatBytes,
  invalidUtf8Offset,
  MAX_CONSTITUTION_BYTES,
  MAX_FILE_BYTES,
  sizeIssues,
  utf8Length,
} from "./limits";
import { formatIssue } from "./schema";

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...Buffer.from(p, "utf8")] : p)));

describe("utf8Length", () => {
  it.each([
    ["", 0],
    ["title: x", 8],
    ["café", 5],
    ["€", 3],
    ["😀", 4],
    ["a\ud800b", 5],
    ["\udc00", 3],
  ])("%j is %i bytes, as Buffer.byteLength says", (text, expected) => {
    expect(utf8Length(text)).toBe(expected);
    expect(utf8Length(text)).toBe(Buffer.byteLength(text, "utf8"));
  });
});

describe("formatBytes", () => {
  it.each([
    [900, "900 bytes"],
    [1024, "1 KiB"],
    [524_288, "512 KiB"],
    [524_289, "512.0 KiB"],
    [2_097_152, "2 MiB"],
    [52_428_905, "50.0 MiB"],
  ])("%i is %s", (n, text) => {
    expect(formatBytes(n)).toBe(text);
  });
});

describe("invalidUtf8Offset", () => {
  it.each([
    ["ASCII", bytes("title: x\n"), -1],
    ["two-, three- and four-byte characters", bytes("café € 😀"), -1],
    ["Latin-1 é", bytes("caf", [0xe9], "\n"), 3],
    ["a lone continuation byte", bytes("ab", [0x80]), 2],
    ["an overlong slash (C0 AF)", bytes("a", [0xc0, 0xaf]), 1],
    ["an encoded surrogate (ED A0 80)", bytes([0xed, 0xa0, 0x80]), 0],
    ["past U+10FFFF (F4 90 80 80)", bytes("x", [0xf4, 0x90, 0x80, 0x80]), 1],
    ["a character cut at the end", bytes("ok ", [0xe2, 0x82]), 3],
  ])("%s", (_label, input, offset) => {
    expect(invalidUtf8Offset(input)).toBe(offset);
    let fatal = false;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(input);
    } catch {
      fatal = true;
    }
    expect(fatal).toBe(offset !== -1);
  });
});

describe("decodeConstitutionFile", () => {
  it("decodes UTF-8 and drops a byte order mark", () => {
    expect(decodeConstitutionFile("core.yaml", bytes([0xef, 0xbb, 0xbf], "title: café\n"))).toEqual(
      { ok: true, text: "title: café\n" },
    );
  });

  it.each([
    [
      "Latin-1 on line 3",
      "overlays/medical.yaml",
      bytes("domain: medical\nadditional_principles:\n  - title: Caf", [0xe9], " au lait\n"),
      "overlays/medical.yaml:3:15: (file): is not UTF-8: byte 0xE9 at byte offset 53 cannot start or continue a UTF-8 character; save the file as UTF-8",
    ],
    [
      "the first byte",
      "core.yaml",
      bytes([0xff, 0xfe], "t\0i\0"),
      "core.yaml:1:1: (file): is not UTF-8: byte 0xFF at byte offset 0 cannot start or continue a UTF-8 character; save the file as UTF-8",
    ],
    [
      "after multi-byte characters, counted as characters in the column",
      "eval/x.yaml",
      bytes("a: €€", [0x80]),
      "eval/x.yaml:1:6: (file): is not UTF-8: byte 0x80 at byte offset 9 cannot start or continue a UTF-8 character; save the file as UTF-8",
    ],
  ])("refuses %s, naming line, column and byte offset", (_label, path, input, expected) => {
    const result = decodeConstitutionFile(path, input);
    expect(result.ok ? "decoded" : formatIssue(result.issue)).toBe(expected);
  });
});

describe("sizeIssues", () => {
  it("says nothing at exactly the limits", () => {
    const files = Array.from({ length: MAX_CONSTITUTION_BYTES / MAX_FILE_BYTES }, (_, i) => ({
      path: `overlays/o${i}.yaml`,
      bytes: MAX_FILE_BYTES,
    }));
    expect(sizeIssues(files)).toEqual([]);
    expect(sizeIssues([...files, { path: "core.yaml", bytes: 1 }]).map((i) => i.reason)).toEqual([
      expect.stringMatching(/ together, over the limit of /),
    ]);
  });

  it("names each file over the limit and, at the largest, a total over the limit", () => {
    const issues = sizeIssues([
      { path: "overlays/huge.yaml", bytes: 52_428_905 },
      { path: "core.yaml", bytes: 30_483 },
    ]);
    expect(issues.map(formatIssue)).toEqual([
      `overlays/huge.yaml:1:1: (file): is 50.0 MiB; a constitution file may hold at most ${formatBytes(MAX_FILE_BYTES)}`,
      `overlays/huge.yaml:1:1: (file): the constitution's 2 files hold 50.0 MiB together, over the limit of ${formatBytes(MAX_CONSTITUTION_BYTES)}; this one, the largest, holds 50.0 MiB`,
    ]);
  });
});
