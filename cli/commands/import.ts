import path from "node:path";
import cliProgress from "cli-progress";
import type { Command } from "commander";
import { CliError } from "../errors";
import { withDatabase } from "../runtime";

async function runImport(target: string | null, label: string): Promise<void> {
  await withDatabase(async () => {
    const { ensureConstitution } = await import("@/lib/services/constitution");
    const { importTranscripts, transcriptFiles, DEMO_DIR } = await import("@/lib/services/import");
    await ensureConstitution();
    const where = target ?? DEMO_DIR;
    let files: string[];
    try {
      files = await transcriptFiles(where);
    } catch {
      throw new CliError(`${where} does not exist or cannot be read.`);
    }
    if (files.length === 0) throw new CliError(`No .jsonl transcripts in ${where}.`);
    const bar = process.stderr.isTTY ? new cliProgress.SingleBar({ format: "importing [{bar}] {value}/{total} files  {file}", stream: process.stderr }, cliProgress.Presets.shades_classic) : null;
    bar?.start(files.length, 0, { file: "" });
    const summary = await importTranscripts(files, (done, _total, file) => bar?.update(done, { file: path.basename(file) }));
    bar?.stop();
    console.log(`${label}: ${summary.files} files, ${summary.sessions} sessions, ${summary.accepted} events applied, ${summary.duplicates} already there, ${summary.malformed.length} malformed lines`);
    for (const m of summary.malformed) console.log(`  ${m.file}:${m.line}: ${m.reason}`);
  });
}

export function registerImport(program: Command): void {
  program
    .command("import")
    .description("Import data into Charter")
    .command("transcripts <path>")
    .description("Import Claude Code transcript files (.jsonl, or a directory of them) as scored sessions")
    .action((target: string) => runImport(path.resolve(target), "imported"));

  program
    .command("demo")
    .description("Demo data")
    .command("load")
    .description("Load the sample sessions shipped with Charter (the same path as real transcripts)")
    .action(() => runImport(null, "demo loaded"));
}
