import { describe, expect, it } from "vitest";
import { SEED_TOOL_FAILURE_WORDS } from "@/test/fixtures/seeds/credit";
import {
  BASH_EXIT_FAILURE_PATTERN,
  determineToolSuccess,
  TOOL_FAILURE_PATTERN,
} from "./tool-success";

const FAILURE_WORDS = SEED_TOOL_FAILURE_WORDS;
const TOOLS = ["Bash", "Read", "Edit", "WebFetch"];

describe("tool success detection handles error patterns (docs/spec/credit-assignment.md § Phase 3)", () => {
  it("fails on exactly the spec's words", () => {
    expect(TOOL_FAILURE_PATTERN.source.split("|")).toEqual([...SEED_TOOL_FAILURE_WORDS]);
  });

  it.each(FAILURE_WORDS.flatMap((word) => TOOLS.map((tool) => [word, tool] as const)))(
    "an output mentioning %j fails for %s, in any case",
    (word, tool) => {
      expect(determineToolSuccess(tool, `step 2: ${word}`)).toBe(false);
      expect(determineToolSuccess(tool, `STEP 2: ${word.toUpperCase()}`)).toBe(false);
      expect(determineToolSuccess(tool, { result: `${word} here` })).toBe(false);
    },
  );

  it.each([
    ["Read", "export const x = 1;", true],
    ["Grep", "src/a.ts:3: match", true],
    ["Read", "", true],
    ["Bash", "TypeError: x is undefined", false],
    ["Bash", "Build FAILED in 3s", false],
    ["Bash", "Permission denied", false],
    ["Bash", "NullPointerException at line 3", false],
  ])("%s %j -> %s", (tool, output, expected) => {
    expect(determineToolSuccess(tool, output)).toBe(expected);
  });

  describe("Bash exit codes (1-9 fail; other tools ignore them)", () => {
    it("reads the exit code with BASH_EXIT_FAILURE_PATTERN", () => {
      expect(BASH_EXIT_FAILURE_PATTERN.test("exit code: 3")).toBe(true);
      expect(BASH_EXIT_FAILURE_PATTERN.test("exit code: 0")).toBe(false);
    });

    it.each([
      ["Bash", "exit code: 1", false],
      ["Bash", "Exit Code: 9", false],
      ["Bash", "done\nexit code: 2", false],
      ["Bash", "exit code: 127", false],
      ["Bash", "exit code: 0", true],
      ["Bash", "exit code 1", true],
      ["Edit", "exit code: 1", true],
      ["Read", "exit code: 2", true],
      ["bash", "exit code: 1", true],
    ])("%s %j -> %s", (tool, output, expected) => {
      expect(TOOL_FAILURE_PATTERN.test(output)).toBe(false);
      expect(determineToolSuccess(tool, output)).toBe(expected);
    });
  });

  describe("non-string outputs are judged by their JSON text", () => {
    it.each([
      ["Bash", { stdout: "", stderr: "permission denied" }, false],
      ["Bash", { stdout: "exit code: 2" }, false],
      ["Bash", { stdout: "exit code: 0" }, true],
      ["Read", { content: "all good" }, true],
      ["Read", ["line one", "an exception"], false],
      ["Read", 404, true],
      ["Read", null, true],
      ["Edit", { filePath: "a.ts", error: null }, false],
    ])("%s %j -> %s", (tool, output, expected) => {
      expect(determineToolSuccess(tool, output)).toBe(expected);
      expect(determineToolSuccess(tool, JSON.stringify(output))).toBe(expected);
    });

    it("succeeds for a missing output", () => {
      expect(determineToolSuccess("Read", undefined)).toBe(true);
    });
  });
});
