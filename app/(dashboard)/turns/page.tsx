import type { Metadata } from "next";
import Link from "next/link";
import {
  parseTurnQuery,
  toTurnFilters,
  turnQueryString,
  type SearchParams,
} from "@/components/turns/filters";
import { LiveTurnsTable } from "@/components/turns/live-turns-table";
import { toTurnPage } from "@/components/turns/rows";
import { TurnFilters } from "@/components/turns/turn-filters";
import { Card, ErrorText, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { sessions } from "@/lib/db/sessions";
import { turns } from "@/lib/db/turns";

export const metadata: Metadata = { title: "Turns" };

export default async function TurnsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePage("viewer");
  const { query, problems } = parseTurnQuery(await searchParams);
  const qs = turnQueryString(query);
  const [page, agents] = await Promise.all([turns.list(toTurnFilters(query)), sessions.agents()]);
  const first = toTurnPage(page);
  return (
    <>
      <PageHeader
        title="Turns"
        description={
          <>
            Every agent turn, scored against the seven constitutional principles, newest first. The
            total is normalized by the weights in force, so totals under different weight sets
            compare.{" "}
            <Link href="/docs/turns" className="text-indigo-600 hover:underline">
              How turns are scored
            </Link>
          </>
        }
      />
      <div className="space-y-6">
        <Card title="Filters">
          <TurnFilters key={qs} query={query} agents={agents} />
        </Card>
        {problems.length > 0 ? (
          <ErrorText>
            Ignored invalid filters: {problems.map((p) => `${p.field} (${p.message})`).join("; ")}.
          </ErrorText>
        ) : null}
        <Card title={query.session ? `Turns of session ${query.session}` : "Scored turns"}>
          <LiveTurnsTable key={qs} query={qs} initial={first} />
        </Card>
      </div>
    </>
  );
}
