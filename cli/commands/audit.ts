import type { Command } from "commander";
import { parseExpectedHead } from "@/lib/db/audit-chain";
import { CliError, EXIT } from "../errors";
import { withDatabase } from "../runtime";

const VERIFY_HELP = `
Walks the whole audit log in order and recomputes each row's hash: an edited row
shows as a hash mismatch, a deleted row as a gap, a row inserted out of order or
back-dated as a prev_hash mismatch or a time earlier than the row before it.
Exit 0 when the chain is intact, 1 with the list of breaks otherwise.

The newest rows could be removed without a trace inside the log itself: keep the
"through" row and hash it prints somewhere the database's owner cannot write, and
check later with --expect-head <through>:<hash> (docs/security.md).`;

export function registerAudit(program: Command): void {
  const audit = program.command("audit").description("The audit log and its hash chain");
  audit
    .command("verify")
    .description("Check the audit log's hash chain; exit 1 naming each break")
    .option("--json", "print {intact, rows, from, through, headHash, breaks, breaksOmitted}")
    .option("--max-breaks <n>", "list at most this many breaks (default 100)")
    .option(
      "--expect-head <seq:hash>",
      "a row and hash recorded from an earlier run (through:headHash): fail unless that row is still there with that hash",
    )
    .addHelpText("after", VERIFY_HELP)
    .action(async (options: { json?: boolean; maxBreaks?: string; expectHead?: string }) => {
      const maxBreaks = parseMaxBreaks(options.maxBreaks);
      const expectHead =
        options.expectHead === undefined ? undefined : parseExpectedHead(options.expectHead);
      if (expectHead === null)
        throw new CliError(
          `--expect-head must be <seq>:<64 hex digits>, as verify prints through and headHash (got "${options.expectHead}").`,
          EXIT.usage,
        );
      const report = await withDatabase(async () => {
        const { auditChain } = await import("@/lib/db/audit");
        return auditChain.verify({ maxBreaks, expectHead });
      });
      if (options.json) {
        const { complete: _complete, ...rest } = report;
        console.log(JSON.stringify(rest, null, 2));
      } else if (report.intact) {
        console.log(
          report.rows === 0
            ? "charter: the audit log is empty."
            : `charter: audit chain intact: ${report.rows} rows, through row ${report.through} (hash ${report.headHash}).`,
        );
      } else {
        const count = report.breaks.length + report.breaksOmitted;
        console.log(
          `charter: audit chain broken: ${count} break${count === 1 ? "" : "s"} in ${report.rows} rows.`,
        );
        for (const b of report.breaks) console.log(`  ${b.kind}: ${b.reason}`);
        if (report.breaksOmitted > 0)
          console.log(`  … and ${report.breaksOmitted} more (raise --max-breaks).`);
      }
      process.exitCode = report.intact ? EXIT.ok : EXIT.invalid;
    });
}

function parseMaxBreaks(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) {
    throw new CliError(
      `--max-breaks must be a whole number from 1 to 100000 (got "${value}").`,
      EXIT.usage,
    );
  }
  return n;
}
