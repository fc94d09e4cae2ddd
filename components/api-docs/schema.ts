/** Reading JSON Schema (as zod's toJSONSchema writes it) into rows a person reads: fields, types in words. */

export type JsonSchema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

export type FieldRow = { name: string; type: string; required: boolean; description: string };

/** One shape a body can take: its label (the `type` constant when it has one) and its fields. */
export type SchemaVariant = { label: string; fields: FieldRow[] };

function range(schema: JsonSchema): string {
  const [lo, hi] =
    schema.type === "string"
      ? [schema.minLength, schema.maxLength]
      : [schema.minimum, schema.maximum];
  const unit = schema.type === "string" ? " chars" : "";
  if (lo !== undefined && hi !== undefined) return ` ${lo}–${hi}${unit}`;
  if (hi !== undefined) return ` ≤ ${hi}${unit}`;
  if (lo !== undefined && lo > 0) return ` ≥ ${lo}${unit}`;
  return "";
}

/** A schema's type in words: "string (date)", "number 0–1", "one of: a, b", "array of object". */
export function typeText(schema: JsonSchema | undefined): string {
  if (!schema) return "any";
  if (schema.const !== undefined) return `"${String(schema.const)}"`;
  if (schema.enum) return `one of: ${schema.enum.map(String).join(", ")}`;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.map(typeText).join(" or ");
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : (schema.type ?? "any");
  if (type === "array") return `array of ${typeText(schema.items)}`;
  return `${type}${schema.format ? ` (${schema.format})` : ""}${range(schema)}`;
}

/** An object schema's properties as rows, required ones first in their written order. */
export function fieldRows(schema: JsonSchema): FieldRow[] {
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    type: typeText(property),
    required: required.has(name),
    description: property.description ?? "",
  }));
  return [...rows.filter((r) => r.required), ...rows.filter((r) => !r.required)];
}

/** The shapes a body can take: alternatives (anyOf, oneOf) flattened, each object labelled by its `type` constant or its fields. */
export function schemaVariants(schema: JsonSchema): SchemaVariant[] {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.flatMap(schemaVariants);
  if (!schema.properties) return [{ label: typeText(schema), fields: [] }];
  const kind = schema.properties.type?.const;
  const label =
    kind !== undefined ? String(kind) : `{ ${Object.keys(schema.properties).join(", ")} }`;
  return [{ label, fields: fieldRows(schema) }];
}

/** Text split into plain parts and `code` spans (CommonMark's backticks); an unmatched backtick stays as text. */
export function inlineCodeParts(text: string): { code: boolean; text: string }[] {
  const parts: { code: boolean; text: string }[] = [];
  const pattern = /`([^`]+)`/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push({ code: false, text: text.slice(last, match.index) });
    parts.push({ code: true, text: match[1]! });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ code: false, text: text.slice(last) });
  return parts;
}
