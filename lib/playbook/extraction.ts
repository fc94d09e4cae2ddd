import { z } from "zod";
import type { Evaluation, ExtractionResult } from "./schema";

/** What a JSON value is, in words, for warnings. */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads an ExtractionResult object as the ACE fork's update_playbook_data does, item by
 * item: a malformed item (an evaluation without `name` or `rating`, an empty or
 * non-text new key point) is skipped with a warning naming it, and everything else is
 * kept, so one bad item never loses the rest of the reflector's answer. A missing or
 * null list is empty. An object item of a new key point gives its `text` (the fork's
 * later `{text, section}` shape). New texts are trimmed.
 */
export function readExtraction(
  raw: Record<string, unknown>,
): ExtractionResult & { warnings: string[] } {
  const warnings: string[] = [];
  const list = (field: "new_key_points" | "evaluations"): unknown[] => {
    const value = raw[field];
    if (value === undefined || value === null) return [];
    if (Array.isArray(value)) return value;
    warnings.push(`${field} is ${kindOf(value)}, not a list: ignored`);
    return [];
  };
  if (!("new_key_points" in raw) && !("evaluations" in raw)) {
    const keys = Object.keys(raw);
    warnings.push(
      `the extraction has neither new_key_points nor evaluations${keys.length ? ` (it has ${keys.join(", ")})` : ""}: nothing to apply`,
    );
  }

  const new_key_points: string[] = [];
  list("new_key_points").forEach((item, i) => {
    const where = `new_key_points[${i}]`;
    let text: unknown = item;
    if (isRecord(item)) {
      text = item.text;
      const others = Object.keys(item).filter((k) => k !== "text");
      if (typeof text === "string" && others.length)
        warnings.push(`${where} is an object: its text is used, ${others.join(", ")} ignored`);
    }
    if (typeof text !== "string")
      warnings.push(
        `${where} is ${kindOf(item)}${isRecord(item) ? " without a text" : ""}, not a text: skipped`,
      );
    else if (text.trim() === "") warnings.push(`${where} is empty: skipped`);
    else new_key_points.push(text.trim());
  });

  const evaluations: Evaluation[] = [];
  list("evaluations").forEach((item, i) => {
    const where = `evaluations[${i}]`;
    if (!isRecord(item))
      return void warnings.push(`${where} is ${kindOf(item)}, not {name, rating}: skipped`);
    const { name, rating } = item;
    if (typeof name !== "string" || name === "")
      return void warnings.push(
        `${where} has no name${name === undefined || name === "" ? "" : ` (${kindOf(name)})`}: skipped`,
      );
    if (typeof rating !== "string")
      return void warnings.push(
        `${where} (${name}) has no rating${rating === undefined ? "" : ` (${kindOf(rating)})`}: skipped`,
      );
    evaluations.push({ name, rating });
  });
  return { new_key_points, evaluations, warnings };
}

/**
 * An ExtractionResult from JSON: anything that is not an object is refused (it is not
 * an ExtractionResult at all); an object is read by `readExtraction`.
 */
export const extractionResultSchema = z
  .looseObject({ new_key_points: z.unknown().optional(), evaluations: z.unknown().optional() })
  .transform((raw) => readExtraction(raw));
