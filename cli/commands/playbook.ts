import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import {
  extractionResultSchema,
  formatPlaybook,
  loadPlaybook,
  savePlaybook,
  updatePlaybookData,
  type LoadResult,
  type PruneMode,
} from "@/lib/playbook";
import { CliError } from "../errors";
import { withDatabase } from "../runtime";
import { readJsonInput } from "../stdin";

async function readPlaybookFile(file: string): Promise<LoadResult> {
  let text: string | null = null;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const loaded = loadPlaybook(text);
  for (const warning of loaded.warnings) console.error(`charter: ${file}: ${warning}`);
  return loaded;
}

function parsePrune(value: string): PruneMode {
  if (value !== "auto" && value !== "approval")
    throw new CliError(`--prune must be auto or approval (got "${value}").`, 2);
  return value;
}

/** `charter playbook load|update|format` on a plain playbook.json (the playbook spec). */
export function registerPlaybook(program: Command): void {
  const playbook = program
    .command("playbook")
    .description("Key points with helpful/harmful counts (a playbook.json file)");

  playbook
    .command("load")
    .description(
      "Print the playbook in canonical form, legacy entries migrated (a missing or corrupt file gives the empty playbook)",
    )
    .requiredOption("--file <file>", "the playbook.json")
    .action(async (options: { file: string }) => {
      console.log(
        JSON.stringify((await readPlaybookFile(path.resolve(options.file))).playbook, null, 2),
      );
    });

  playbook
    .command("update")
    .description(
      "Apply an ExtractionResult ({new_key_points, evaluations}) from stdin; prints the updated playbook. Malformed items and duplicate texts are skipped with a warning on stderr",
    )
    .requiredOption("--file <file>", "the playbook.json")
    .option(
      "--prune <mode>",
      "auto removes entries meeting the prune rule; approval only lists them",
      parsePrune,
      "auto" as PruneMode,
    )
    .option("--write", "save the result to the file (last_updated set now)")
    .action(async (options: { file: string; prune: PruneMode; write?: boolean }) => {
      const file = path.resolve(options.file);
      const extraction = await readJsonInput(extractionResultSchema, "extraction result");
      const loaded = await readPlaybookFile(file);
      const result = updatePlaybookData(loaded.playbook, extraction, options.prune);
      for (const warning of extraction.warnings) console.error(`charter: stdin: ${warning}`);
      for (const warning of result.warnings.slice(extraction.warnings.length))
        console.error(`charter: ${file}: ${warning}`);
      const updated = options.write ? savePlaybook(result.playbook, new Date()) : result.playbook;
      if (options.write) {
        const temp = `${file}.tmp-${process.pid}`;
        await writeFile(temp, `${JSON.stringify(updated, null, 2)}\n`);
        await rename(temp, file);
      }
      const warnings = [...loaded.warnings, ...result.warnings];
      console.log(
        JSON.stringify(
          {
            playbook: updated,
            added: result.added,
            pruned: result.pruned,
            ...(options.prune === "approval" ? { prune_candidates: result.candidates } : {}),
            warnings,
          },
          null,
          2,
        ),
      );
    });

  playbook
    .command("import")
    .description(
      "Load a playbook.json (legacy formats migrated) into the database; prune proposals go to the dashboard's queue",
    )
    .requiredOption("--file <file>", "the playbook.json")
    .action(async (options: { file: string }) => {
      const file = path.resolve(options.file);
      const { playbook: loaded } = await readPlaybookFile(file);
      if (loaded.key_points.length === 0)
        throw new CliError(`${file} has no key points to import.`);
      await withDatabase(async () => {
        const { keyPoints } = await import("@/lib/db/key-points");
        const result = await keyPoints.importPlaybook(loaded, { id: null, label: "cli" });
        if (result.unkept.length)
          console.error(
            `charter: ${file}: the database keeps name, text, helpful and harmful; ${result.unkept.join(", ")} not imported`,
          );
        for (const { from, to } of result.renamed)
          console.error(
            `charter: ${file}: ${from} names a different key point in the database: imported as ${to}`,
          );
        console.log(`imported ${file}: ${result.created} new, ${result.updated} updated`);
      });
    });

  playbook
    .command("export")
    .description("Write the database's playbook (pruned entries left out) to a playbook.json")
    .requiredOption("--file <file>", "where to write")
    .action(async (options: { file: string }) => {
      const file = path.resolve(options.file);
      await withDatabase(async () => {
        const { keyPoints } = await import("@/lib/db/key-points");
        const exported = await keyPoints.exportPlaybook();
        await writeFile(file, `${JSON.stringify(exported, null, 2)}\n`);
        console.log(`wrote ${exported.key_points.length} key points to ${file}`);
      });
    });

  playbook
    .command("reflect <session-id>")
    .description("Run the reflector on a stored session (needs OPENAI_BASE_URL/OPENAI_API_KEY)")
    .action(async (sessionId: string) => {
      await withDatabase(async () => {
        const { reflectSession } = await import("@/lib/services/reflect");
        const outcome = await reflectSession(sessionId, { id: null, label: "cli" });
        if (outcome.status === "failed")
          throw new CliError(`the reflector applied nothing: ${outcome.error}`);
        for (const warning of outcome.warnings) console.error(`charter: reflector: ${warning}`);
        console.log(JSON.stringify(outcome, null, 2));
      });
    });

  playbook
    .command("format")
    .description("Print the key points as `[name] helpful=N harmful=N :: text`, one per line")
    .requiredOption("--file <file>", "the playbook.json")
    .action(async (options: { file: string }) => {
      const text = formatPlaybook(
        (await readPlaybookFile(path.resolve(options.file))).playbook.key_points,
      );
      if (text) console.log(text);
    });
}
