import { readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { issueLines } from "@/lib/errors";
import { CliError } from "./errors";

/** Reads all of stdin as text. */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new CliError(
      "Expected JSON on stdin (pipe it in, e.g. `echo '{...}' | charter ...`).",
      2,
    );
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Reads a JSON document from `file`, or from stdin when it is absent or "-"; bad JSON is one clear error. */
export async function readJsonArgument(file: string | undefined): Promise<unknown> {
  const fromStdin = file === undefined || file === "-";
  let text: string;
  if (fromStdin) text = await readStdin();
  else {
    try {
      text = await readFile(path.resolve(file), "utf8");
    } catch (error) {
      throw new CliError(
        `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `${fromStdin ? "stdin" : file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The formatted issues of a failed parse, each naming its field. */
export const issuesText = (
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  prefix = "",
) =>
  issueLines(prefix ? issues.map((i) => ({ ...i, path: [prefix, ...i.path] })) : issues).join("; ");

/** Parses stdin as JSON against a schema; a bad document is one clear error naming the field. */
export async function readJsonInput<S extends z.ZodType>(
  schema: S,
  what: string,
): Promise<z.output<S>> {
  const parsed = schema.safeParse(await readJsonArgument(undefined));
  if (!parsed.success) throw new CliError(`invalid ${what}: ${issuesText(parsed.error.issues)}`);
  return parsed.data;
}
