import { Badge } from "@/components/ui/primitives";
import type { DetectedDomain } from "@/lib/constitution/store";
import { ConfidenceBar } from "./confidence-bar";

/** The domains the prompt was matched to, best first. */
export function DetectedDomains({ domains }: { domains: DetectedDomain[] }) {
  if (domains.length === 0)
    return (
      <p className="text-sm text-slate-600">No domain detected: only core principles apply.</p>
    );
  return (
    <ul className="space-y-2" aria-label="Detected domains">
      {domains.map((d) => (
        <li
          key={d.domain}
          data-testid={`domain-${d.domain}`}
          className="grid grid-cols-[10rem_1fr_auto] items-center gap-3 text-sm"
        >
          <span className="font-medium text-slate-900">{d.domain}</span>
          <ConfidenceBar value={d.confidence} />
          <Badge tone={d.source === "llm" ? "indigo" : "slate"}>{d.source}</Badge>
        </li>
      ))}
    </ul>
  );
}
