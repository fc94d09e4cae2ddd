import { Badge } from "@/components/ui/primitives";
import type { ChainReport } from "@/lib/schemas/audit-rows";

/** Whether the audit log's hash chain verifies, as the server last checked it. */
export function ChainStatus({ report }: { report: ChainReport }) {
  const first = report.breaks[0];
  const more = report.breaks.length + report.breaksOmitted - 1;
  const scope = report.complete
    ? `all ${report.rows} rows checked`
    : `the newest ${report.rows} rows, ${report.from}–${report.through}, checked here; \`charter audit verify\` checks every row`;
  return (
    <div
      data-testid="audit-chain"
      className="mb-4 flex flex-wrap items-center gap-2 text-sm text-slate-700"
    >
      {report.rows === 0 ? (
        <span className="text-slate-500">Hash chain: no entries yet.</span>
      ) : first ? (
        <>
          <Badge tone="red">Chain broken</Badge>
          <span>
            {first.kind === "unchained"
              ? `Broken: ${first.reason}`
              : `Broken at row ${first.seq}: ${first.reason.replace(/^row \d+: /, "")}`}
            {more > 0 ? ` (and ${more} more)` : ""}. Run{" "}
            <code className="font-mono text-xs">charter audit verify</code> for the full list.
          </span>
        </>
      ) : (
        <>
          <Badge tone="green">Chain verified</Badge>
          <span>
            Verified through row {report.through} ({scope}).
          </span>
        </>
      )}
    </div>
  );
}
