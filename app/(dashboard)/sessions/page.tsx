import type { Metadata } from "next";
import Link from "next/link";
import { AgentFilter } from "@/components/agents/agent-filter";
import { SessionsTable } from "@/components/sessions/sessions-table";
import { Card, ErrorText, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { sessions } from "@/lib/db/sessions";
import { parseSearchParams, problemsText, type SearchParams } from "@/lib/schemas/query";
import { sessionsQuerySchema } from "@/lib/schemas/sessions";

export const metadata: Metadata = { title: "Sessions" };

const PAGE_SIZE = 50;
const link = "text-sm font-medium text-indigo-600 hover:underline";

export default async function SessionsPage({
  searchParams,
}: {
  searchParams: Promise<SearchParams>;
}) {
  await requirePage("viewer");
  const { query, problems } = parseSearchParams(sessionsQuerySchema, await searchParams);
  const before = query.before ? new Date(query.before) : undefined;
  const agent = query.agent;
  const [rows, agents] = await Promise.all([
    sessions.list({ limit: PAGE_SIZE, before, agent }),
    sessions.agents(),
  ]);
  const last = rows.at(-1);
  const url = (params: { before?: string; agent?: string }) => {
    const search = new URLSearchParams(
      Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined),
    ).toString();
    return search ? `/sessions?${search}` : "/sessions";
  };
  return (
    <>
      <PageHeader
        title="Sessions"
        description={
          <>
            Agent sessions, newest activity first. When a session ends, its signals (tool success,
            errors, edits, the feedback in each prompt) give it an outcome and a score, and every
            principle injected during it a share of the credit.{" "}
            <Link href="/docs/sessions" className="text-indigo-600 hover:underline">
              How sessions are credited
            </Link>
          </>
        }
      />
      <div className="space-y-4">
        {problems.length > 0 ? <ErrorText>{problemsText(problems)}</ErrorText> : null}
        <AgentFilter agents={agents} current={agent} href={(a) => url({ agent: a })} />
        <Card title={before ? `Sessions with activity before ${before.toISOString()}` : "Sessions"}>
          <SessionsTable rows={rows} />
          <div className="mt-4 flex gap-4">
            {before ? (
              <Link href={url({ agent })} className={link}>
                Newest
              </Link>
            ) : null}
            {rows.length === PAGE_SIZE && last ? (
              <Link href={url({ before: last.lastEventAt.toISOString(), agent })} className={link}>
                Older
              </Link>
            ) : null}
          </div>
        </Card>
      </div>
    </>
  );
}
