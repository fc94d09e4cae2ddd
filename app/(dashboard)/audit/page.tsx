import type { Metadata } from "next";
import Link from "next/link";
import { ChainStatus } from "@/components/audit/chain-status";
import { Card, ErrorText, PageHeader, Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { requirePage } from "@/lib/auth/page";
import { auditChain, auditLog } from "@/lib/db/audit";
import { auditQuerySchema } from "@/lib/schemas/audit";
import { parseSearchParams, problemsText, type SearchParams } from "@/lib/schemas/query";

export const metadata: Metadata = { title: "Audit log" };

const PAGE_SIZE = 50;

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-slate-400">—</span>;
  // Rendered as text inside <pre>: user-supplied values can never become markup.
  return <pre className="max-w-xs overflow-x-auto whitespace-pre-wrap break-all font-mono text-xs text-slate-600">{JSON.stringify(value, null, 1)}</pre>;
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePage("approver");
  const { query, problems } = parseSearchParams(auditQuerySchema, await searchParams);
  const { before, type } = query;
  const [entries, chain] = await Promise.all([auditLog.list({ before, objectType: type, limit: PAGE_SIZE }), auditChain.recent()]);
  const last = entries.at(-1);
  return (
    <>
      <PageHeader title="Audit log" description="Every change of state made by a person or an API key, newest first. Entries cannot be edited or deleted, and each one is hashed with the one before it." />
      {problems.length > 0 ? <ErrorText>{problemsText(problems)}</ErrorText> : null}
      <ChainStatus report={chain} />
      <Card>
        <Table head={["When", "Who", "Action", "Object", "Before", "After"]} empty={entries.length === 0 ? <p className="px-3 py-6 text-sm text-slate-500">No entries.</p> : null}>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <Td>
                <Time value={entry.at} />
              </Td>
              <Td>{entry.actorLabel}</Td>
              <Td className="font-mono text-xs">{entry.action}</Td>
              <Td>
                <Link className="text-indigo-600 hover:underline" href={`/audit?type=${encodeURIComponent(entry.objectType)}`}>
                  {entry.objectType}
                </Link>
                <span className="block font-mono text-xs text-slate-500">{entry.objectId}</span>
              </Td>
              <Td>
                <Json value={entry.before} />
              </Td>
              <Td>
                <Json value={entry.after} />
              </Td>
            </tr>
          ))}
        </Table>
        {entries.length === PAGE_SIZE && last ? (
          <Link className="mt-4 inline-block text-sm text-indigo-600 hover:underline" href={`/audit?before=${last.id}${type ? `&type=${encodeURIComponent(type)}` : ""}`}>
            Older entries
          </Link>
        ) : null}
      </Card>
    </>
  );
}
