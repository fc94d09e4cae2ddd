import type { Metadata } from "next";
import Link from "next/link";
import { PRUNE_RULE } from "@/components/playbook/format";
import { PruneQueue } from "@/components/playbook/prune-queue";
import { PrunedTable } from "@/components/playbook/pruned-table";
import type { ProposalView } from "@/components/playbook/types";
import { WithdrawnList } from "@/components/playbook/withdrawn-list";
import { Card, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { roleAtLeast } from "@/lib/auth/roles";
import { keyPoints } from "@/lib/db/key-points";
import { pruneQueue } from "@/lib/db/prune-queue";
import { shouldPrune } from "@/lib/playbook";

export const metadata: Metadata = { title: "Prune queue" };

/** How many rating events a proposal shows; older ones are counted, not listed. */
const EVENTS_SHOWN = 20;
/** How many pruned entries "Recently pruned" lists. */
const PRUNED_SHOWN = 50;
/** How many withdrawn proposals "Back in use" lists. */
const WITHDRAWN_SHOWN = 20;

async function proposalsWithEvidence(): Promise<ProposalView[]> {
  const proposed = await keyPoints.list({ status: "proposed" });
  return Promise.all(
    proposed.map(async (p) => {
      const { evaluations } = await keyPoints.get(p.name);
      return {
        name: p.name,
        text: p.text,
        helpful: p.helpful,
        harmful: p.harmful,
        meetsRule: shouldPrune(p),
        events: evaluations.slice(0, EVENTS_SHOWN).map((e) => ({
          id: e.id,
          rating: e.rating,
          sessionId: e.sessionId,
          createdAt: e.createdAt.toISOString(),
        })),
        eventCount: evaluations.length,
      };
    }),
  );
}

export default async function PruneQueuePage() {
  const me = await requirePage("viewer");
  const canDecide = roleAtLeast(me.role, "approver");
  const [proposals, pruned, withdrawn] = await Promise.all([
    proposalsWithEvidence(),
    keyPoints.list({ status: "pruned" }),
    pruneQueue.recentlyWithdrawn(WITHDRAWN_SHOWN),
  ]);
  const recent = pruned
    .sort((a, b) => (b.prunedAt?.getTime() ?? 0) - (a.prunedAt?.getTime() ?? 0))
    .slice(0, PRUNED_SHOWN);
  return (
    <>
      <PageHeader
        title="Prune queue"
        description={
          <>
            Key points proposed for pruning because they met the rule <code>{PRUNE_RULE}</code>. An
            approver decides: approving stops agents getting the point (undo puts it back in this
            queue, or into use if its counts no longer meet the rule); rejecting keeps it until its
            harmful count grows further. A proposal whose counts stop meeting the rule goes back
            into use by itself.
          </>
        }
        actions={
          <Link
            href="/playbook"
            className="whitespace-nowrap text-sm font-medium text-indigo-600 hover:underline"
          >
            Back to the playbook
          </Link>
        }
      />
      <div className="space-y-6">
        <Card title={`Proposals (${proposals.length})`}>
          <PruneQueue proposals={proposals} canDecide={canDecide} />
        </Card>
        <Card title={`Recently pruned (${pruned.length})`}>
          <PrunedTable rows={recent} canUndo={canDecide} />
          {pruned.length > recent.length ? (
            <p className="mt-3 text-xs text-slate-500">
              The {PRUNED_SHOWN} most recent are listed; filter the playbook by status for all.
            </p>
          ) : null}
        </Card>
        <Card title="Back in use: proposals withdrawn because their counts changed">
          <WithdrawnList rows={withdrawn} />
        </Card>
      </div>
    </>
  );
}
