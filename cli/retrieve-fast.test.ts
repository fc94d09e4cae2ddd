import { describe, expect, it } from "vitest";
import { usualArguments } from "./retrieve-fast";

// What the fast bundle answers itself; everything else goes to the command's own parser,
// which reports errors in its words (cli/retrieve.db.test.ts runs both).
describe("charter retrieve's fast bundle: the arguments it takes on", () => {
  it.each([
    [["drop the table"], { prompt: "drop the table", json: false }],
    [["drop the table", "--json"], { prompt: "drop the table", json: true }],
    [["--json", "drop the table"], { prompt: "drop the table", json: true }],
    [["x", "--top-k", "3"], { prompt: "x", topK: "3", json: false }],
    [
      ["x", "--top-k=3", "--domain=legal,medical"],
      { prompt: "x", topK: "3", domain: "legal,medical", json: false },
    ],
    [
      ["--domain", "legal", "x", "--domain", "medical"],
      { prompt: "x", domain: "medical", json: false },
    ],
    [["x", "--top-k", "0"], { prompt: "x", topK: "0", json: false }],
  ])("%j", (args, usual) => {
    expect(usualArguments(args)).toEqual(usual);
  });

  it.each([
    [[]],
    [[""]],
    [["   "]],
    [["x", "y"]],
    [["x", "--help"]],
    [["-h"]],
    [["x", "--top-k"]],
    [["x", "--top-k", "-1"]],
    [["x", "--domain", "--json"]],
    [["x", "--json=true"]],
    [["x", "--verbose"]],
    [["--", "x"]],
    [["-x"]],
  ])("leaves %j to the command", (args) => {
    expect(usualArguments(args)).toBeNull();
  });
});
