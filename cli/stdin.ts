import type { z } from "zod";
import { CliError } from "./errors";

/** Reads all of stdin as text. */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new CliError("Expected JSON on stdin (pipe it in, e.g. `echo '{...}' | charter ...`).", 2);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Parses stdin as JSON against a schema; a bad document is one clear error naming the field. */
export async function readJsonInput<S extends z.ZodType>(schema: S, what: string): Promise<z.output<S>> {
  const text = await readStdin();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new CliError(`stdin is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new CliError(`invalid ${what}: ${parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`).join("; ")}`);
  }
  return parsed.data;
}
