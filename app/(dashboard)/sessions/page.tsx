import type { Metadata } from "next";
import Link from "next/link";
import { SessionsTable } from "@/components/sessions/sessions-table";
import { Card, ErrorText, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { listSessions } from "@/lib/db/sessions";

export const metadata: Metadata = { title: "Sessions" };

const PAGE_SIZE = 50;
const link = "text-sm font-medium text-indigo-600 hover:underline";

/** The `before` cursor: an ISO timestamp (a row's last event); anything else is ignored. */
function parseBefore(value: string | string[] | undefined): { before?: Date; invalid: boolean } {
  if (typeof value !== "string" || value === "") return { invalid: false };
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? { invalid: true } : { before: date, invalid: false };
}

export default async function SessionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePage("viewer");
  const { before, invalid } = parseBefore((await searchParams).before);
  const rows = await listSessions({ limit: PAGE_SIZE, before });
  const last = rows.at(-1);
  return (
    <>
      <PageHeader
        title="Sessions"
        description={
          <>
            Agent sessions, newest activity first. When a session ends, its signals (tool success, errors, edits, the feedback in each prompt) give it an outcome and a score,
            and every principle injected during it a share of the credit.{" "}
            <Link href="/docs/sessions" className="text-indigo-600 hover:underline">
              How sessions are credited
            </Link>
          </>
        }
      />
      <div className="space-y-4">
        {invalid ? <ErrorText>Ignored an invalid “before” time; showing the newest sessions.</ErrorText> : null}
        <Card title={before ? `Sessions with activity before ${before.toISOString()}` : "Sessions"}>
          <SessionsTable rows={rows} />
          <div className="mt-4 flex gap-4">
            {before ? (
              <Link href="/sessions" className={link}>
                Newest
              </Link>
            ) : null}
            {rows.length === PAGE_SIZE && last ? (
              <Link href={`/sessions?before=${encodeURIComponent(last.lastEventAt.toISOString())}`} className={link}>
                Older
              </Link>
            ) : null}
          </div>
        </Card>
      </div>
    </>
  );
}
