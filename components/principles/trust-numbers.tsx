import { formatCount, formatUnit, formatWeighted } from "@/lib/format";
import type { PrincipleDetail } from "./types";

/** A principle's counters and the three trust measures computed from them. */
export function TrustNumbers({ trust }: { trust: PrincipleDetail["trust"] }) {
  const items: [string, string, string][] = [
    ["Uses", formatCount(trust.useCount), "sessions that credited it"],
    ["Successes", formatWeighted(trust.successCount), "sum of its credits"],
    ["Raw trust", formatUnit(trust.raw), "successes / uses"],
    ["Smoothed trust", formatUnit(trust.smoothed), "(successes + 1) / (uses + 2)"],
    ["Lower bound", formatUnit(trust.lowerBound), "Wilson, 95%: used for ranking"],
  ];
  return (
    <dl className="space-y-2 text-sm" data-testid="trust-numbers" data-use-count={trust.useCount}>
      {items.map(([label, value, hint]) => (
        <div key={label} className="flex items-baseline justify-between gap-3">
          <dt className="text-slate-600">
            {label}
            <span className="block text-xs text-slate-400">{hint}</span>
          </dt>
          <dd className="text-lg font-semibold tabular-nums text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
