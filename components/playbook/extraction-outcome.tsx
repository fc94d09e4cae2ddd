import Link from "next/link";
import { plural } from "@/components/ui/format";

/** What an applied extraction did: points added, ratings counted, prune proposals, items skipped. */
export function ExtractionOutcome({
  added,
  evaluated,
  proposed,
  warnings,
}: {
  added: string[];
  evaluated: number;
  proposed: string[];
  warnings: string[];
}) {
  const names = (list: string[]) =>
    list.length > 0 ? <span className="font-mono">{list.join(", ")}</span> : "none";
  return (
    <div
      role="status"
      data-testid="extraction-result"
      className="space-y-1 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900"
    >
      <p data-testid="extraction-added">Added: {names(added)}</p>
      <p data-testid="extraction-evaluated">Counted {plural(evaluated, "rating")}.</p>
      <p data-testid="extraction-proposed">
        Proposed for pruning: {names(proposed)}
        {proposed.length > 0 ? (
          <>
            {" "}
            (
            <Link href="/playbook/prune" className="text-indigo-700 hover:underline">
              prune queue
            </Link>
            )
          </>
        ) : null}
      </p>
      {warnings.length > 0 ? (
        <div data-testid="extraction-warnings" className="text-amber-800">
          <p>Skipped {plural(warnings.length, "item")}:</p>
          <ul className="list-disc pl-5 font-mono text-xs">
            {warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
