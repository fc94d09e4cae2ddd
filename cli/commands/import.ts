import path from "node:path";
import cliProgress from "cli-progress";
import type { Command } from "commander";
import { agentLabel } from "@/lib/schemas/agents";
import { DEFAULT_IDLE_MINUTES } from "@/lib/transcripts/convert";
import { TRANSCRIPT_AGENTS, type TranscriptAgent } from "@/lib/transcripts/formats";
import { CliError } from "../errors";
import { withDatabase } from "../runtime";

/** `--idle-minutes`: a whole number of minutes, 0 or more. */
function idleMinutes(value: string): number {
  const minutes = Number(value);
  if (!Number.isInteger(minutes) || minutes < 0)
    throw new CliError(
      `--idle-minutes must be a whole number of minutes, 0 or more (got ${value}).`,
    );
  return minutes;
}

/** "3 Claude Code, 1 Codex": how many of the files each agent wrote. */
function byAgent(perFile: { agent: TranscriptAgent }[]): string {
  return TRANSCRIPT_AGENTS.flatMap((agent) => {
    const n = perFile.filter((f) => f.agent === agent).length;
    return n ? [`${n} ${agentLabel(agent)}`] : [];
  }).join(", ");
}

async function runImport(target: string | null, label: string, idle: number): Promise<void> {
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
    if (files.length === 0) throw new CliError(`No .jsonl or .json transcripts in ${where}.`);
    const bar = process.stderr.isTTY
      ? new cliProgress.SingleBar(
          { format: "importing [{bar}] {value}/{total} files  {file}", stream: process.stderr },
          cliProgress.Presets.shades_classic,
        )
      : null;
    bar?.start(files.length, 0, { file: "" });
    const summary = await importTranscripts(files, {
      idleMinutes: idle,
      onProgress: (done, _total, file, agent) =>
        bar?.update(done, {
          file: `${agent ? agentLabel(agent) : "skipped"}: ${path.basename(file)}`,
        }),
    });
    bar?.stop();
    const open = summary.open ? ` (${summary.open} left open)` : "";
    const agents = summary.files ? ` (${byAgent(summary.perFile)})` : "";
    console.log(
      `${label}: ${summary.files} files${agents}, ${summary.sessions} sessions${open}, ${summary.accepted} events applied, ${summary.duplicates} already there, ${summary.malformed.length} malformed lines`,
    );
    const shown = (file: string) => path.relative(where, file) || path.basename(file);
    for (const { file, agent } of summary.perFile)
      console.log(`  ${agentLabel(agent)}: ${shown(file)}`);
    for (const file of summary.skipped)
      console.log(`  skipped: ${shown(file)} is no Claude Code, Codex or Gemini CLI transcript`);
    for (const m of summary.malformed) console.log(`  ${m.file}:${m.line}: ${m.reason}`);
    if (summary.open)
      console.log(
        `  left open: no exit and an entry in the last ${idle} minutes (--idle-minutes); import again later to end them`,
      );
  });
}

async function runDemo(): Promise<void> {
  await withDatabase(async () => {
    const { ensureConstitution } = await import("@/lib/services/constitution");
    const { loadDemo } = await import("@/lib/services/demo");
    await ensureConstitution();
    const summary = await loadDemo({ id: null, label: "cli" });
    const proposed = summary.proposedForPruning.length
      ? `; proposed for pruning: ${summary.proposedForPruning.join(", ")}`
      : "";
    console.log(
      `demo loaded: ${summary.sessions} sessions (${summary.teamSessions} of the team's), ${summary.accepted} events applied, ${summary.duplicates} already there, ${summary.keyPointsAdded.length} key points added${proposed}`,
    );
  });
}

export function registerImport(program: Command): void {
  program
    .command("import")
    .description("Import data into Charter")
    .command("transcripts <path>")
    .description(
      "Import coding agents' session files as scored sessions: Claude Code transcripts, Codex CLI rollouts and Gemini CLI chats (a file, or a directory searched for .jsonl and .json files; which agent wrote each is read from its content)",
    )
    .option(
      "--idle-minutes <minutes>",
      "close a session the agent did not exit once nothing was written to it for this long",
      String(DEFAULT_IDLE_MINUTES),
    )
    .addHelpText(
      "after",
      `
Where each agent keeps its sessions:
  Claude Code  ~/.claude/projects/<project>/*.jsonl
  Codex CLI    ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl  (point at ~/.codex/sessions for all)
  Gemini CLI   ~/.gemini/tmp/<project>/chats/session-*.jsonl (older versions: .json)

Files of other kinds in a directory are skipped and listed. Importing again adds only
what is new; a session still being written is left open until it is idle.`,
    )
    .action((target: string, options: { idleMinutes: string }) =>
      runImport(path.resolve(target), "imported", idleMinutes(options.idleMinutes)),
    );

  program
    .command("demo")
    .description("Demo data")
    .command("load")
    .description(
      "Load the demo: the sample transcripts, a team's month of sessions through the hooks' path, and a rated playbook",
    )
    .action(() => runDemo());
}
