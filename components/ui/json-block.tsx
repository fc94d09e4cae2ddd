/** A JSON value (a schema, an example) pretty-printed as text. */
export function JsonBlock({ value, label }: { value: unknown; label?: string }) {
  return (
    <pre
      aria-label={label}
      className="max-h-96 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-3 font-mono text-xs text-slate-800"
    >
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}
