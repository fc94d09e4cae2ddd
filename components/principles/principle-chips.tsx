import Link from "next/link";

/** Principle ids as small chips linking to their trust page; the title (when known) on hover. */
export function PrincipleChips({
  ids,
  titles,
  empty = "none",
}: {
  ids: string[];
  titles?: Map<string, string>;
  empty?: string;
}) {
  if (ids.length === 0) return <span className="text-xs text-slate-400">{empty}</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {ids.map((id) => (
        <Link
          key={id}
          href={`/principles/${encodeURIComponent(id)}`}
          title={titles?.get(id) ?? id}
          className="rounded bg-indigo-50 px-1.5 py-0.5 font-mono text-[11px] text-indigo-700 ring-1 ring-inset ring-indigo-200 hover:bg-indigo-100"
        >
          {id}
        </Link>
      ))}
    </span>
  );
}
