import type { Metadata } from "next";
import { Card, PageHeader } from "@/components/ui/primitives";
import { WeightHistory } from "@/components/weights/weight-history";
import { WeightsForm } from "@/components/weights/weights-form";
import { formatWeighted } from "@/lib/format";
import { requirePage } from "@/lib/auth/page";
import { jobs } from "@/lib/db/jobs";
import { weightSets } from "@/lib/db/weights";

export const metadata: Metadata = { title: "Weights" };

export default async function WeightsPage() {
  await requirePage("admin");
  const current = await weightSets.current();
  const [history, latestJob] = await Promise.all([weightSets.history(), jobs.latestRecompute()]);
  return (
    <>
      <PageHeader
        title="Weights"
        description="How much each principle counts in a turn's weighted total. A missing principle weighs 1.0; the max total is the weights' sum. Saving a new set recomputes every stored total in the background; the per-principle scores do not change."
      />
      <div className="space-y-6">
        <Card
          title={`Weight set ${current.id} is in force (max total ${formatWeighted(current.maxTotal)})`}
        >
          <WeightsForm current={current.weights} latestJob={latestJob} />
        </Card>
        <Card title="History">
          <WeightHistory sets={history} />
        </Card>
      </div>
    </>
  );
}
