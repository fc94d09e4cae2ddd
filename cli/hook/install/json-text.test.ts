import { describe, expect, it } from "vitest";
import { CliError } from "../../errors";
import {
  addProperty,
  appendItem,
  parseJsonDocument,
  removeAt,
  replaceValue,
  reparse,
} from "./json-text";

const parse = (text: string, comments = false) =>
  parseJsonDocument(text, "/x/settings.json", { comments });

describe("editing JSON settings in place", () => {
  it.each([
    [
      "an item after items on lines of their own",
      '{\n    "list": [\n        1,\n        2\n    ]\n}\n',
      '{\n    "list": [\n        1,\n        2,\n        {\n            "a": [\n                3\n            ]\n        }\n    ]\n}\n',
    ],
    ["an item after items sharing a line", '{ "list": [1, 2] }', '{ "list": [1, 2, {"a":[3]}] }'],
    [
      "an item in an empty list",
      '{\n  "list": []\n}\n',
      '{\n  "list": [\n    {\n      "a": [\n        3\n      ]\n    }\n  ]\n}\n',
    ],
    [
      "an item after a comment, with CRLF line ends",
      '{\r\n\t// mine\r\n\t"list": [\r\n\t\t1 /* one */\r\n\t]\r\n}\r\n',
      '{\r\n\t// mine\r\n\t"list": [\r\n\t\t1,\r\n\t\t{\r\n\t\t\t"a": [\r\n\t\t\t\t3\r\n\t\t\t]\r\n\t\t} /* one */\r\n\t]\r\n}\r\n',
    ],
  ])("appends %s, and removing it gives the text back", (_, text, expected) => {
    const doc = parse(text, true);
    const added = appendItem(doc, ["list"], { a: [3] });
    expect(added).toBe(expected);
    const index = (doc.value.list as unknown[]).length;
    expect(removeAt(reparse(doc, added), ["list", index])).toBe(text);
  });

  it("adds a property to an object, a new file's first, and takes it out again", () => {
    const empty = parse("{}\n");
    const first = addProperty(empty, [], "hooks", { Stop: [] });
    expect(first).toBe('{\n  "hooks": {\n    "Stop": []\n  }\n}\n');
    const doc = parse('{\n  // keep me\n  "model": "x" /* and me */\n}', true);
    const added = addProperty(doc, [], "hooks", { Stop: [1] });
    expect(added).toBe(
      '{\n  // keep me\n  "model": "x",\n  "hooks": {\n    "Stop": [\n      1\n    ]\n  } /* and me */\n}',
    );
    expect(removeAt(reparse(doc, added), ["hooks"])).toBe(doc.text);
  });

  it("keeps the comments of an object that holds nothing else", () => {
    const doc = parse("{\n  // nothing yet\n}\n", true);
    expect(addProperty(doc, [], "version", 1)).toBe('{\n  "version": 1\n  // nothing yet\n}\n');
  });

  it.each([
    ["the first of three", 0, "[\n  2,\n  3\n]"],
    ["the middle one", 1, "[\n  1,\n  3\n]"],
    ["the last", 2, "[\n  1,\n  2\n]"],
  ])("removes %s item with its separator", (_, index, expected) => {
    expect(removeAt(parse('{"l": [\n  1,\n  2,\n  3\n]}'), ["l", index])).toBe(
      `{"l": ${expected}}`,
    );
  });

  it("removes an only item, leaving the empty list", () => {
    expect(removeAt(parse('{"l": [ 1 ], "m": 2}'), ["l", 0])).toBe('{"l": [], "m": 2}');
  });

  it("replaces a value in its own layout", () => {
    const doc = parse('{\n  "a": { "x": 1 },\n  "b": {\n    "x": 1\n  }\n}');
    expect(replaceValue(doc, ["a"], { x: 2, y: 3 })).toBe(
      '{\n  "a": {"x":2,"y":3},\n  "b": {\n    "x": 1\n  }\n}',
    );
    expect(replaceValue(doc, ["b"], { x: 2 })).toBe(
      '{\n  "a": { "x": 1 },\n  "b": {\n    "x": 2\n  }\n}',
    );
  });

  it.each([
    ["{ nope", "unexpected text at line 1, column 3"],
    ['{\n  "a": 1,\n}', "a property name expected at line 3, column 1"],
    [
      '{\n  // a comment\n  "a": 1\n}',
      "a comment, which this file may not hold at line 2, column 3",
    ],
    ["[]", null],
  ])("refuses %j, naming the file and the place", (text, where) => {
    const error = (() => {
      try {
        parse(text);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toBe(
      where
        ? `/x/settings.json is not valid JSON: ${where}; fix it by hand first.`
        : "/x/settings.json does not hold a JSON object; fix it by hand first.",
    );
  });

  it("takes comments where the agent does", () => {
    expect(parse('{\n  // a comment\n  "a": 1\n}', true).value).toEqual({ a: 1 });
  });
});
