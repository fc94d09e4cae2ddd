import type { Metadata } from "next";
import Link from "next/link";
import type { TrustRow } from "@/components/principles/rows";
import { TrustTable } from "@/components/principles/trust-table";
import { AgentFilter } from "@/components/agents/agent-filter";
import { Card, ErrorText, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { principles } from "@/lib/db/principles";
import { sessions } from "@/lib/db/sessions";
import { agentLabel, UNKNOWN_AGENT } from "@/lib/schemas/agents";
import { parseSearchParams, problemsText, type SearchParams } from "@/lib/schemas/query";
import { principlesQuerySchema } from "@/lib/schemas/sessions";

export const metadata: Metadata = { title: "Principles" };

export default async function PrinciplesPage({
  searchParams,
}: {
  searchParams: Promise<SearchParams>;
}) {
  await requirePage("viewer");
  const { query, problems } = parseSearchParams(principlesQuerySchema, await searchParams);
  const agent = query.agent;
  const [list, agents] = await Promise.all([principles.withTrust(agent), sessions.agents()]);
  const rows: TrustRow[] = list.map((p) => ({
    id: p.id,
    title: p.title,
    level: p.level,
    domain: p.domain,
    inConstitution: p.inConstitution,
    useCount: p.useCount,
    successCount: p.successCount,
    raw: p.raw,
    smoothed: p.smoothed,
    lowerBound: p.lowerBound,
    trend: p.trend,
  }));
  const domains = [...new Set(rows.flatMap((r) => (r.domain ? [r.domain] : [])))].sort();
  return (
    <>
      <PageHeader
        title="Principles"
        description={
          <>
            How far each principle can be trusted, from the credit it earned in the sessions it was
            injected into. Uses count the sessions; successes sum their credit (0 to 1 each). Raw
            trust is successes over uses, smoothed trust is (successes + 1) / (uses + 2), and the
            lower bound (Wilson, 95%) ranks them so that two uses do not outrank two hundred.{" "}
            <Link href="/docs/principles" className="text-indigo-600 hover:underline">
              How trust is computed
            </Link>
          </>
        }
      />
      <div className="mb-4 space-y-2">
        {problems.length > 0 ? <ErrorText>{problemsText(problems)}</ErrorText> : null}
        <AgentFilter
          agents={agents}
          current={agent}
          href={(a) => (a ? `/principles?agent=${encodeURIComponent(a)}` : "/principles")}
        />
      </div>
      <Card
        title={
          agent
            ? `Trust from ${agent === UNKNOWN_AGENT ? "sessions that named no agent" : `${agentLabel(agent)} sessions`}`
            : "Trust"
        }
      >
        {rows.length === 0 ? (
          <p className="text-sm text-slate-500">
            No principles yet: there is no constitution in force and nothing has been credited.
            Start at the{" "}
            <Link href="/constitution" className="text-indigo-600 hover:underline">
              Constitution
            </Link>
            .
          </p>
        ) : (
          <TrustTable rows={rows} domains={domains} />
        )}
      </Card>
    </>
  );
}
