/** A timestamp shown in UTC, with the full ISO time on hover. */
export function Time({ value }: { value: Date | string | null | undefined }) {
  if (!value) return <span className="text-slate-400">never</span>;
  const date = typeof value === "string" ? new Date(value) : value;
  const iso = date.toISOString();
  return (
    <time dateTime={iso} title={iso}>
      {iso.slice(0, 16).replace("T", " ")} UTC
    </time>
  );
}
