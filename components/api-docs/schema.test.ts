import { describe, expect, it } from "vitest";
import { inlineCodeParts, schemaVariants, typeText } from "./schema";

describe("inlineCodeParts", () => {
  it.each([
    [
      "pass `next` as `cursor`",
      [
        { code: false, text: "pass " },
        { code: true, text: "next" },
        { code: false, text: " as " },
        { code: true, text: "cursor" },
      ],
    ],
    ["no code", [{ code: false, text: "no code" }]],
    ["a lone ` stays", [{ code: false, text: "a lone ` stays" }]],
    ["`<b>x</b>`", [{ code: true, text: "<b>x</b>" }]],
  ])("%s", (text, parts) => {
    expect(inlineCodeParts(text)).toEqual(parts);
  });
});

describe("typeText", () => {
  it.each([
    [{ type: "number", minimum: 0, maximum: 1 }, "number 0–1"],
    [{ type: "string", format: "date" }, "string (date)"],
    [{ type: "string", enum: ["a", "b"] }, "one of: a, b"],
    [{ type: "array", items: { type: "string" } }, "array of string"],
    [{ type: "string", maxLength: 200 }, "string ≤ 200 chars"],
  ])("%j reads %s", (schema, text) => {
    expect(typeText(schema)).toBe(text);
  });
});

describe("schemaVariants", () => {
  it("labels each alternative by its type constant, required fields first", () => {
    const schema = {
      anyOf: [
        {
          oneOf: [
            {
              type: "object",
              properties: {
                note: { type: "string" },
                type: { const: "Stop" },
                id: { type: "string" },
              },
              required: ["type", "id"],
            },
          ],
        },
        {
          type: "object",
          properties: { events: { type: "array", items: { type: "object" } } },
          required: ["events"],
        },
      ],
    };
    expect(schemaVariants(schema)).toEqual([
      {
        label: "Stop",
        fields: [
          expect.objectContaining({ name: "type", required: true }),
          expect.objectContaining({ name: "id", required: true }),
          expect.objectContaining({ name: "note", required: false }),
        ],
      },
      {
        label: "{ events }",
        fields: [{ name: "events", type: "array of object", required: true, description: "" }],
      },
    ]);
  });
});
