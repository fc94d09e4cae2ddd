import { describe, expect, it } from "vitest";
import { codexToolResponse } from "./codex-output";

describe("codexToolResponse", () => {
  it.each([
    [
      "the shell tool's JSON, exit 0",
      JSON.stringify({ output: "ok\n", metadata: { exit_code: 0, duration_seconds: 0.1 } }),
      "ok\n",
    ],
    [
      "the shell tool's JSON, exit 2",
      JSON.stringify({ output: "no such file\n", metadata: { exit_code: 2, duration_seconds: 0 } }),
      "Error: exit code 2\nno such file\n",
    ],
    [
      "structured text, exit 0",
      "Exit code: 0\nWall time: 0.2 seconds\nOutput:\nok",
      "Exit code: 0\nWall time: 0.2 seconds\nOutput:\nok",
    ],
    [
      "structured text, exit 127",
      "Exit code: 127\nWall time: 0 seconds\nOutput:\nbash: nope: command not found",
      "Error: exit code 127\nExit code: 127\nWall time: 0 seconds\nOutput:\nbash: nope: command not found",
    ],
    [
      "unified exec, exited 1",
      "Chunk ID: 3f2a\nWall time: 1.0 seconds\nProcess exited with code 1\nOutput:\nfail",
      "Error: exit code 1\nChunk ID: 3f2a\nWall time: 1.0 seconds\nProcess exited with code 1\nOutput:\nfail",
    ],
    [
      "an exit code quoted in the output, not the header",
      "Exit code: 0\nOutput:\nExit code: 1",
      "Exit code: 0\nOutput:\nExit code: 1",
    ],
    ["plain text", "Plan updated", "Plan updated"],
    ["an interrupted call", "aborted", "Error: aborted"],
    [
      "content items",
      [
        { type: "input_text", text: "a" },
        { type: "input_image", image_url: "data:" },
      ],
      "a\n[input_image]",
    ],
    [
      "a failure object",
      { content: "denied by policy", success: false },
      "Error: denied by policy",
    ],
  ])("%s", (_, output, expected) => {
    expect(codexToolResponse(output)).toBe(expected);
  });
});
