import type { Metadata } from "next";
import Link from "next/link";
import { AddKeyPointForm } from "@/components/playbook/add-key-point-form";
import { AgentFormat } from "@/components/playbook/agent-format";
import { ApplyExtractionForm } from "@/components/playbook/apply-extraction-form";
import { ImportPlaybookForm } from "@/components/playbook/import-playbook-form";
import { KeyPointsTable } from "@/components/playbook/key-points-table";
import { PlaybookFilters } from "@/components/playbook/playbook-filters";
import { PruneQueueLink } from "@/components/playbook/prune-queue-link";
import {
  parsePlaybookQuery,
  storeStatus,
  STATUS_FILTERS,
  type SearchParams,
} from "@/components/playbook/query";
import { Card, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { roleAtLeast } from "@/lib/auth/roles";
import { keyPoints } from "@/lib/db/key-points";

export const metadata: Metadata = { title: "Playbook" };

export default async function PlaybookPage({
  searchParams,
}: {
  searchParams: Promise<SearchParams>;
}) {
  const me = await requirePage("viewer");
  const canEdit = roleAtLeast(me.role, "editor");
  const query = parsePlaybookQuery(await searchParams);
  const [listed, proposed, active] = await Promise.all([
    keyPoints.list({ status: storeStatus(query.status), q: query.q || undefined }),
    keyPoints.list({ status: "proposed" }),
    keyPoints.list({ status: "active" }),
  ]);
  const rows = query.status === "" ? listed.filter((r) => r.status !== "pruned") : listed;
  const filterLabel = STATUS_FILTERS.find((s) => s.value === query.status)?.label ?? "";
  return (
    <>
      <PageHeader
        title="Playbook"
        description={
          <>
            Key points learned from sessions, each rated helpful or harmful by the reflector. Trust
            is helpful / (helpful + harmful). A point that meets the prune rule is proposed, and an
            approver decides.{" "}
            <Link href="/docs/playbook" className="text-indigo-600 hover:underline">
              How the playbook works
            </Link>
          </>
        }
        actions={<PruneQueueLink count={proposed.length} />}
      />
      <div className={canEdit ? "grid gap-6 xl:grid-cols-[1fr_24rem]" : "space-y-6"}>
        <div className="min-w-0 space-y-6">
          <Card title="Filters">
            <PlaybookFilters key={`${query.status}|${query.q}`} query={query} />
          </Card>
          <Card
            title={`${filterLabel}: ${rows.length} ${rows.length === 1 ? "key point" : "key points"}${query.q ? ` matching “${query.q}”` : ""}`}
          >
            <KeyPointsTable
              rows={rows}
              canEdit={canEdit}
              emptyText={query.q ? "No key point matches this search." : "No key points here yet."}
            />
          </Card>
          <AgentFormat entries={active} />
        </div>
        {canEdit ? (
          <div className="space-y-6">
            <Card title="Add a key point">
              <AddKeyPointForm />
            </Card>
            <Card title="Import playbook.json">
              <ImportPlaybookForm />
            </Card>
            <Card title="Apply an extraction">
              <ApplyExtractionForm names={[...active, ...proposed].map((r) => r.name)} />
            </Card>
          </div>
        ) : null}
      </div>
    </>
  );
}
