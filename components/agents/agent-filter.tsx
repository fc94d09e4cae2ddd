import Link from "next/link";
import { formatCount } from "@/lib/format";
import { agentLabel, UNKNOWN_AGENT } from "@/lib/schemas/agents";

export type AgentCount = { agent: string | null; sessions: number };

/**
 * One link per agent that sessions named, with its count, and "All agents": the filter
 * a page keeps in its `agent` search parameter (`href` builds the page's URL for one).
 */
export function AgentFilter({
  agents,
  current,
  href,
}: {
  agents: AgentCount[];
  current: string | undefined;
  href: (agent: string | undefined) => string;
}) {
  if (agents.length < 2 && current === undefined) return null;
  const items: { key: string | undefined; label: string; count?: number }[] = [
    { key: undefined, label: "All agents" },
    ...agents.map((a) => ({
      key: a.agent ?? UNKNOWN_AGENT,
      label: a.agent ? agentLabel(a.agent) : "unknown agent",
      count: a.sessions,
    })),
  ];
  return (
    <nav aria-label="Agent" className="flex flex-wrap gap-2 text-sm" data-testid="agent-filter">
      {items.map((item) => {
        const active = item.key === current;
        return (
          <Link
            key={item.key ?? "all"}
            href={href(item.key)}
            aria-current={active ? "page" : undefined}
            className={`rounded-full border px-3 py-0.5 ${active ? "border-indigo-600 bg-indigo-50 text-indigo-700" : "border-slate-300 text-slate-700 hover:border-indigo-400"}`}
          >
            {item.label}
            {item.count !== undefined ? (
              <span className="ml-1 tabular-nums text-slate-500">{formatCount(item.count)}</span>
            ) : null}
          </Link>
        );
      })}
    </nav>
  );
}
