import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LEARNED_FORMAT } from "@/lib/constitution/learn";
import { HEAD_FILE, headFile, headFilePath, type HeadEntry } from "./head-file";

const ENTRY: HeadEntry = {
  versionId: 7,
  contentHash: "c".repeat(64),
  files: [
    { path: "core.yaml", text: "principles: []\n" },
    { path: "overlays/medical.yaml", text: "domain: medical\n" },
  ],
  learned: {
    format: LEARNED_FORMAT,
    cases: 3,
    domains: { medical: { bias: -1, weights: { headach: 0.5 } } },
    principles: {},
    prompts: {},
  },
  migrations: ["20261122200601_init"],
};

const fresh = () => mkdtempSync(path.join(os.tmpdir(), "charter-head-file-"));

/** Writes ENTRY, lets `edit` change the file's text, and reads it back. */
function readEdited(edit: (text: string) => string) {
  const dir = fresh();
  expect(headFile.write(dir, ENTRY)).toBe(true);
  writeFileSync(headFilePath(dir), edit(readFileSync(headFilePath(dir), "utf8")));
  return headFile.read(dir);
}

describe("the embedded database's head file", () => {
  it("reads back what was written, the files only when asked for", () => {
    const dir = fresh();
    expect(headFile.write(dir, ENTRY)).toBe(true);
    const read = headFile.read(dir)!;
    const { files, ...rest } = ENTRY;
    expect(read).toMatchObject(rest);
    expect(read.files()).toEqual(files);
    expect(readdirSync(dir)).toEqual([HEAD_FILE]);
  });

  it("keeps an entry without learned weights", () => {
    const dir = fresh();
    headFile.write(dir, { ...ENTRY, learned: null });
    expect(headFile.read(dir)?.learned).toBeNull();
  });

  it.each([
    ["missing", null],
    ["empty", () => ""],
    ["torn", (text: string) => text.slice(0, text.length - 10)],
    [
      "one byte changed in the files",
      (text: string) => text.replace("principles: []", "principles: {}"),
    ],
    ["one weight changed", (text: string) => text.replace('"headach":0.5', '"headach":0.9')],
    ["of another format", (text: string) => text.replace('{"format":1', '{"format":2')],
    ["the version changed", (text: string) => text.replace('"versionId":7', '"versionId":8')],
    ["no longer three lines", (text: string) => text.replaceAll("\n", " ")],
  ])("reads as none when %s", (_, edit) => {
    expect(edit ? readEdited(edit) : headFile.read(fresh())).toBeNull();
  });

  it("refuses learned weights of another format, and files that are not files", () => {
    const dir = fresh();
    headFile.write(dir, {
      ...ENTRY,
      learned: { ...ENTRY.learned!, format: 99 as typeof LEARNED_FORMAT },
    });
    expect(headFile.read(dir)).toBeNull();
    headFile.write(dir, { ...ENTRY, files: [{ path: "core.yaml" }] as HeadEntry["files"] });
    expect(headFile.read(dir)?.files()).toBeNull();
  });

  it("is removed whether or not it exists", () => {
    const dir = fresh();
    headFile.remove(dir);
    headFile.write(dir, ENTRY);
    headFile.remove(dir);
    expect(headFile.read(dir)).toBeNull();
  });
});
