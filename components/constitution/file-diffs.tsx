import type { ReactNode } from "react";
import { Badge } from "@/components/ui/primitives";
import { MAX_DIFF_LINES } from "@/lib/constitution/diff-limits";
import type { BoundedDiff, DiffSide } from "@/lib/constitution/diff-limits";
import { formatBytes, MAX_FILE_BYTES } from "@/lib/constitution/limits";

function lineClass(line: string): string {
  if (line.startsWith("+++") || line.startsWith("---")) return "text-slate-500";
  if (line.startsWith("+")) return "bg-emerald-50 text-emerald-800";
  if (line.startsWith("-")) return "bg-red-50 text-red-800";
  if (line.startsWith("@@")) return "text-indigo-700";
  return "text-slate-700";
}

/** Patch lines (`+`, `-`, `@@` and context), coloured. */
export function PatchLines({ lines }: { lines: readonly string[] }) {
  return (
    <pre className="overflow-x-auto py-2 text-xs leading-5">
      {lines.map((line, i) => (
        <span key={i} className={`block px-3 ${lineClass(line)}`}>
          {line || " "}
        </span>
      ))}
    </pre>
  );
}

/** The download URL of one file of a version, as stored (app/(dashboard)/constitution/history/raw). */
export function rawFileHref(version: number, path: string): string {
  return `/constitution/history/raw?${new URLSearchParams({ version: String(version), path })}`;
}

const count = (n: number, noun: string) => `${n.toLocaleString("en")} ${noun}${n === 1 ? "" : "s"}`;
const describe = (s: NonNullable<DiffSide>) => `${formatBytes(s.bytes)}, ${count(s.lines, "line")}`;

/** Links to the whole file in each version that has it. */
function Downloads({ diff, from, to }: { diff: BoundedDiff; from: number; to: number }) {
  const links = [
    diff.before ? { version: from, side: diff.before } : null,
    diff.after ? { version: to, side: diff.after } : null,
  ].filter((l) => l !== null);
  return (
    <span className="space-x-3">
      {links.map(({ version, side }) => (
        <a
          key={version}
          className="font-medium text-indigo-700 underline"
          href={rawFileHref(version, diff.path)}
          download
        >
          Download version {version}&apos;s file ({describe(side)})
        </a>
      ))}
    </span>
  );
}

function Note({ children }: { children: ReactNode }) {
  return (
    <p className="border-t border-slate-200 bg-amber-50 px-3 py-2 text-sm text-slate-700">
      {children}
    </p>
  );
}

/**
 * The changed files between two versions (`from`, `to`), each as a coloured unified patch,
 * bounded by lib/constitution/diff-limits: a file too large or too changed to diff, or whose
 * patch was cut, says so and links to the whole files.
 */
export function FileDiffs({ diffs, from, to }: { diffs: BoundedDiff[]; from: number; to: number }) {
  const changed = diffs.filter((d) => d.status !== "unchanged");
  if (changed.length === 0)
    return (
      <p className="text-sm text-slate-600">
        No files differ: the two versions have the same content.
      </p>
    );
  const hidden = changed.reduce((n, d) => n + d.hidden, 0);
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        {changed.length} {changed.length === 1 ? "file" : "files"} changed.
        {hidden > 0
          ? ` A page shows at most ${count(MAX_DIFF_LINES, "line")} of diff; ${count(hidden, "line")} are left out below.`
          : null}
      </p>
      {changed.map((d) => (
        <section
          key={d.path}
          aria-label={`Diff of ${d.path}`}
          className="overflow-hidden rounded-md border border-slate-200"
        >
          <header className="flex items-center gap-2 border-b border-slate-200 bg-slate-50 px-3 py-2 text-sm">
            <span className="font-mono font-medium text-slate-900">{d.path}</span>
            <Badge tone={d.status === "added" ? "green" : d.status === "removed" ? "red" : "slate"}>
              {d.status}
            </Badge>
            {d.additions !== null ? <span className="text-emerald-700">+{d.additions}</span> : null}
            {d.deletions !== null ? <span className="text-red-700">−{d.deletions}</span> : null}
          </header>
          {d.shown.length > 0 ? <PatchLines lines={d.shown} /> : null}
          {d.skipped === "too_large" ? (
            <Note>
              Not compared: a side is over the {formatBytes(MAX_FILE_BYTES)} a constitution file may
              hold. <Downloads diff={d} from={from} to={to} />
            </Note>
          ) : d.skipped === "too_slow" ? (
            <Note>
              Not compared line by line: it would take too long here (the file changed a great deal,
              or the comparison&apos;s time was spent on the files above).{" "}
              <Downloads diff={d} from={from} to={to} />
            </Note>
          ) : d.hidden > 0 && d.shown.length === 0 ? (
            <Note>
              Not shown: this diff has {count(d.hidden, "line")}, and the files above used the
              page&apos;s {count(MAX_DIFF_LINES, "line")}.{" "}
              <Downloads diff={d} from={from} to={to} />
            </Note>
          ) : d.hidden > 0 ? (
            <Note>
              This diff has {count(d.shown.length + d.hidden, "line")}; showing the first{" "}
              {d.shown.length.toLocaleString("en")}. <Downloads diff={d} from={from} to={to} />
            </Note>
          ) : null}
        </section>
      ))}
    </div>
  );
}
