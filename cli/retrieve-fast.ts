import { retrieveFromHeadFile } from "./commands/retrieve-head";
import { domainList, parseTopK, printAnswer } from "./commands/retrieve-output";
import { prepareEnv } from "./environment";

/**
 * `charter retrieve` for the usual call on the embedded database, bundled on its own as
 * dist/cli/retrieve-fast.cjs (scripts/build-cli.mjs) and required by bin/charter.mjs before
 * the command's own bundle: one CommonJS file with the engine in it, no commander, no ES
 * module loader resolving chunks and built-ins, no Prisma or PGlite (an agent may call it
 * per prompt; bench/retrieve-cli.ts). It answers from the database's head file, as the
 * command does, and gives way (false, nothing printed) for anything else: other arguments,
 * an argument the command would refuse, PostgreSQL, another retrieval path, no usable head
 * file, or an error, which the command then reports in its own words.
 */
export async function retrieveFast(args: readonly string[]): Promise<boolean> {
  const usual = usualArguments(args);
  if (!usual) return false;
  let answer;
  try {
    const topK = usual.topK === undefined ? undefined : parseTopK(usual.topK);
    answer = await retrieveFromHeadFile(prepareEnv(), usual.prompt, {
      topK,
      domain: domainList(usual.domain),
    });
  } catch {
    return false;
  }
  if (!answer) return false;
  printAnswer(answer, usual.json);
  return true;
}

type Usual = { prompt: string; topK?: string; domain?: string; json: boolean };

/**
 * The arguments after `retrieve` when they are one prompt and the command's own options
 * (`--top-k n`, `--domain d`, either also as `--name=value`, and `--json`), else null: help,
 * an unknown option, a second prompt, an empty one or a value that looks like an option are
 * left to the command's parser.
 */
export function usualArguments(args: readonly string[]): Usual | null {
  const usual: Partial<Usual> & { json: boolean } = { json: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (name === "--json" && eq < 0) usual.json = true;
    else if (name === "--top-k" || name === "--domain") {
      const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
      if (value === undefined || (eq < 0 && value.startsWith("-"))) return null;
      if (name === "--top-k") usual.topK = value;
      else usual.domain = value;
    } else if (arg.startsWith("-") || usual.prompt !== undefined) return null;
    else usual.prompt = arg;
  }
  return usual.prompt?.trim() ? (usual as Usual) : null;
}
