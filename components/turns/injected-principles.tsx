/** The constitution principles retrieved for the prompt and injected into the agent's context. */
export function InjectedPrinciples({ ids, titles }: { ids: string[]; titles: Map<string, string> }) {
  if (ids.length === 0) return <p className="text-sm text-slate-500">No principles were injected for this prompt.</p>;
  return (
    <ul className="space-y-1 text-sm">
      {ids.map((id) => (
        <li key={id} data-testid={`injected-${id}`}>
          <span className="font-mono text-xs text-slate-900">{id}</span>{" "}
          {titles.has(id) ? <span className="text-slate-700">{titles.get(id)}</span> : <span className="italic text-slate-400">not in the current constitution</span>}
        </li>
      ))}
    </ul>
  );
}
