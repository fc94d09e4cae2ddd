import type { Metadata } from "next";
import Link from "next/link";
import { AuditChange } from "@/components/audit/audit-change";
import { ChainStatus } from "@/components/audit/chain-status";
import { auditObject, fieldChanges, type AuditNames } from "@/components/audit/describe";
import { Card, ErrorText, PageHeader, Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { requirePage } from "@/lib/auth/page";
import { apiKeys } from "@/lib/db/api-keys";
import { auditChain, auditLog } from "@/lib/db/audit";
import { users } from "@/lib/db/users";
import { auditQuerySchema } from "@/lib/schemas/audit";
import { parseSearchParams, problemsText, type SearchParams } from "@/lib/schemas/query";

export const metadata: Metadata = { title: "Audit log" };

const PAGE_SIZE = 50;

/** User e-mails and key names by id, to name the objects of the entries shown (a few hundred rows at most). */
async function auditNames(): Promise<AuditNames> {
  const [people, keys] = await Promise.all([users.list(), apiKeys.list()]);
  return {
    users: new Map(people.map((u) => [u.id, u.email])),
    keys: new Map(keys.map((k) => [k.id, k.name])),
  };
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePage("approver");
  const { query, problems } = parseSearchParams(auditQuerySchema, await searchParams);
  const { before, type } = query;
  const [entries, chain, names] = await Promise.all([
    auditLog.list({ before, objectType: type, limit: PAGE_SIZE }),
    auditChain.recent(),
    auditNames(),
  ]);
  const last = entries.at(-1);
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change of state made by a person or an API key, newest first. Entries cannot be edited or deleted, and each one is hashed with the one before it."
      />
      {problems.length > 0 ? <ErrorText>{problemsText(problems)}</ErrorText> : null}
      <ChainStatus report={chain} />
      <Card>
        <Table
          head={["When", "Who", "Action", "Object", "Change (before → after)"]}
          empty={
            entries.length === 0 ? (
              <p className="px-3 py-6 text-sm text-slate-500">No entries.</p>
            ) : null
          }
        >
          {entries.map((entry) => {
            const object = auditObject(entry, names);
            return (
              <tr key={entry.id} data-testid={`audit-${entry.id}`}>
                <Td>
                  <Time value={entry.at} />
                </Td>
                <Td>{entry.actorLabel}</Td>
                <Td className="font-mono text-xs">{entry.action}</Td>
                <Td>
                  <span className="text-slate-500">{object.kind}</span>{" "}
                  {object.href ? (
                    <Link className="text-indigo-600 hover:underline" href={object.href}>
                      {object.name}
                    </Link>
                  ) : (
                    object.name
                  )}
                  <Link
                    className="block text-xs text-slate-400 hover:underline"
                    href={`/audit?type=${encodeURIComponent(entry.objectType)}`}
                  >
                    all {entry.objectType} entries
                  </Link>
                </Td>
                <Td className="min-w-64">
                  <AuditChange changes={fieldChanges(entry.before, entry.after, names)} />
                </Td>
              </tr>
            );
          })}
        </Table>
        {entries.length === PAGE_SIZE && last ? (
          <Link
            className="mt-4 inline-block text-sm text-indigo-600 hover:underline"
            href={`/audit?before=${last.id}${type ? `&type=${encodeURIComponent(type)}` : ""}`}
          >
            Older entries
          </Link>
        ) : null}
      </Card>
    </>
  );
}
