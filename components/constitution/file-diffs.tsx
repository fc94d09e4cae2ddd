import { Badge } from "@/components/ui/primitives";
import type { FileDiff } from "@/lib/constitution/diff";

function lineClass(line: string): string {
  if (line.startsWith("+++") || line.startsWith("---")) return "text-slate-500";
  if (line.startsWith("+")) return "bg-emerald-50 text-emerald-800";
  if (line.startsWith("-")) return "bg-red-50 text-red-800";
  if (line.startsWith("@@")) return "text-indigo-700";
  return "text-slate-700";
}

/** The changed files between two versions, each as a coloured unified patch. */
export function FileDiffs({ diffs }: { diffs: FileDiff[] }) {
  const changed = diffs.filter((d) => d.status !== "unchanged");
  if (changed.length === 0) return <p className="text-sm text-slate-600">No files differ: the two versions have the same content.</p>;
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        {changed.length} {changed.length === 1 ? "file" : "files"} changed.
      </p>
      {changed.map((d) => (
        <section key={d.path} aria-label={`Diff of ${d.path}`} className="overflow-hidden rounded-md border border-slate-200">
          <header className="flex items-center gap-2 border-b border-slate-200 bg-slate-50 px-3 py-2 text-sm">
            <span className="font-mono font-medium text-slate-900">{d.path}</span>
            <Badge tone={d.status === "added" ? "green" : d.status === "removed" ? "red" : "slate"}>{d.status}</Badge>
            <span className="text-emerald-700">+{d.additions}</span>
            <span className="text-red-700">−{d.deletions}</span>
          </header>
          <pre className="overflow-x-auto py-2 text-xs leading-5">
            {d.patch.split("\n").map((line, i) => (
              <span key={i} className={`block px-3 ${lineClass(line)}`}>
                {line || " "}
              </span>
            ))}
          </pre>
        </section>
      ))}
    </div>
  );
}
