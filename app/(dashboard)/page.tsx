import type { Metadata } from "next";
import Link from "next/link";
import { DistributionChart } from "@/components/overview/distribution-chart";
import { LoadDemoButton } from "@/components/overview/load-demo-button";
import { NoTurns } from "@/components/overview/no-turns";
import { SectionLinks } from "@/components/overview/section-links";
import { fillDays } from "@/components/overview/trend";
import { TrendChart } from "@/components/overview/trend-chart";
import { WeakestTable } from "@/components/overview/weakest-table";
import { Card, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { demoSessionIds } from "@/lib/services/import";
import { roleAtLeast } from "@/lib/auth/roles";
import { sessions } from "@/lib/db/sessions";
import { stats as overviewStats } from "@/lib/db/stats";
import { formatCount } from "@/lib/format";

export const metadata: Metadata = { title: "Overview" };

const TREND_DAYS = 30;

function Stat({
  label,
  value,
  href,
  testId,
}: {
  label: string;
  value: number;
  href: string;
  testId: string;
}) {
  return (
    <Link
      href={href}
      className="block rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-indigo-300"
    >
      <p className="text-sm text-slate-500">{label}</p>
      <p data-testid={testId} className="mt-1 text-3xl font-semibold tabular-nums text-slate-900">
        {formatCount(value)}
      </p>
    </Link>
  );
}

/** Editors may load the demo while some of its sessions are missing (loading again adds only those). */
async function demoLoadable(role: string | null | undefined): Promise<boolean> {
  if (!roleAtLeast(role, "editor")) return false;
  const ids = await demoSessionIds();
  return (await sessions.count(ids)) < ids.length;
}

export default async function OverviewPage() {
  const user = await requirePage("viewer");
  const [stats, canLoadDemo] = await Promise.all([
    overviewStats.overview(TREND_DAYS),
    demoLoadable(user.role),
  ]);
  return (
    <>
      <PageHeader
        title="Overview"
        description={`Signed in as ${user.name || user.email}. Charter scores every agent turn against the seven constitutional principles.`}
      />
      <div className="space-y-6">
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          <Stat
            label="Scored turns"
            value={stats.totals.turns}
            href="/turns"
            testId="total-turns"
          />
          <Stat
            label="Agent sessions"
            value={stats.totals.sessions}
            href="/sessions"
            testId="total-sessions"
          />
        </div>
        {stats.totals.turns === 0 ? (
          <NoTurns canLoadDemo={canLoadDemo} />
        ) : (
          <>
            <div className="grid gap-6 xl:grid-cols-2">
              <Card title={`Score trend, last ${TREND_DAYS} days (average normalized total)`}>
                <TrendChart points={fillDays(stats.trend, TREND_DAYS, new Date())} />
              </Card>
              <Card title="Distribution of normalized totals (all turns)">
                <DistributionChart buckets={stats.distribution} />
              </Card>
            </div>
            <Card title="Lowest-scoring principles this week">
              <WeakestTable rows={stats.weakest} />
            </Card>
            {canLoadDemo ? (
              <Card title="Demo data">
                <div data-testid="demo-slot">
                  <LoadDemoButton />
                </div>
              </Card>
            ) : null}
          </>
        )}
        <SectionLinks />
      </div>
    </>
  );
}
