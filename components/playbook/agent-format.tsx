import { formatPlaybook, type PlaybookEntry } from "@/lib/playbook";

/** The active key points as agents receive them (the playbook spec's `[name] helpful=N harmful=N :: text` lines), as plain text. */
export function AgentFormat({ entries }: { entries: PlaybookEntry[] }) {
  return (
    <details className="rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm">
      <summary className="cursor-pointer font-semibold text-slate-800">
        Formatted for agents ({entries.length} active)
      </summary>
      <p className="mt-2 text-xs text-slate-500">
        Pruned and proposed points are left out. At injection agents get the most trusted first, up
        to the configured limit.
      </p>
      <pre
        data-testid="agent-format"
        className="mt-2 overflow-x-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-3 font-mono text-xs text-slate-800"
      >
        {entries.length > 0 ? formatPlaybook(entries) : "(no active key points)"}
      </pre>
    </details>
  );
}
