import type { Metadata } from "next";
import { ConstitutionLinks, LINK_CLASS } from "@/components/constitution/section-links";
import Link from "next/link";
import { EvalFailures } from "@/components/constitution/eval-failures";
import { trendPoints } from "@/components/constitution/eval-metrics";
import { EvalStatCards } from "@/components/constitution/eval-stat-cards";
import { EvalTrendChart } from "@/components/constitution/eval-trend-chart";
import { EvalVersionsTable } from "@/components/constitution/eval-versions-table";
import { NoConstitution } from "@/components/constitution/no-constitution";
import { NoEvals } from "@/components/constitution/no-evals";
import { Badge, Card, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { evalHistory, hybridEvalOfVersion } from "@/lib/services/constitution-eval";
import { learnedStatus } from "@/lib/services/learned";
import { LearnedCard } from "@/components/constitution/learned-card";
import { ReviewedLabelsTable } from "@/components/labels/reviewed-labels";
import { roleAtLeast } from "@/lib/auth/roles";
import { reviewedLabels } from "@/lib/services/review-labels";

export const metadata: Metadata = { title: "Constitution evals" };

const HISTORY = 30;

type SearchParams = { searchParams: Promise<{ version?: string | string[] }> };

const versionParam = (value: string | string[] | undefined): number | null => {
  const n = Number(Array.isArray(value) ? value[0] : value);
  return Number.isInteger(n) && n > 0 ? n : null;
};

export default async function EvalsPage({ searchParams }: SearchParams) {
  const user = await requirePage("viewer");
  const [history, reviewed] = await Promise.all([evalHistory(HISTORY), reviewedLabels()]);
  const header = (
    <PageHeader
      title="Evals"
      description={
        <>
          Every version of the constitution is measured against its own labelled prompts (
          <code className="font-mono">eval/*.yaml</code>, versioned with it) on the lexical path:
          does a prompt reach its domain and the principles it needs, and does a prompt no overlay
          applies to stay free of overlay principles? Read{" "}
          <Link href="/docs/evals" className="font-medium text-indigo-600 hover:underline">
            how evals work
          </Link>
          .
        </>
      }
      actions={<ConstitutionLinks current="/constitution/evals" />}
    />
  );
  const current = history.find((h) => h.current) ?? history[0];
  if (!current) {
    return (
      <>
        {header}
        <NoConstitution />
      </>
    );
  }
  const asked = versionParam((await searchParams).version);
  const entry = asked === null ? current : history.find((h) => h.versionId === asked);
  const { run } = entry ?? current;
  // With embeddings configured, the hybrid path the server retrieves on is measured beside the lexical one.
  const hybrid = entry && run.caseCount > 0 ? await hybridEvalOfVersion(entry.versionId) : null;
  const learned = entry && run.caseCount > 0 ? await learnedStatus(entry.versionId) : null;
  const title = entry
    ? `Version ${entry.versionId}${entry.current ? " (current)" : ""}: ${run.caseCount} ${run.caseCount === 1 ? "case" : "cases"}`
    : "";

  return (
    <>
      {header}
      <div className="space-y-6">
        {entry ? (
          <Card
            title={title}
            actions={
              run.caseCount === 0 ? null : (
                <span className="flex items-center gap-3">
                  <span data-testid="eval-result">
                    {run.passed ? (
                      <Badge tone="green">all thresholds met</Badge>
                    ) : (
                      <Badge tone="red">{`missed ${run.thresholds.filter((t) => !t.ok).length} of ${run.thresholds.length} thresholds`}</Badge>
                    )}
                  </span>
                  {run.failures.length ? (
                    <a href="#failures" className={LINK_CLASS}>
                      {run.failures.length} {run.failures.length === 1 ? "failure" : "failures"}
                    </a>
                  ) : null}
                </span>
              )
            }
          >
            {run.caseCount === 0 ? (
              <NoEvals versionId={entry.versionId} />
            ) : (
              <EvalStatCards metrics={run.metrics} thresholds={run.thresholds} />
            )}
          </Card>
        ) : (
          <Card>
            <p role="alert" className="text-sm text-red-700">
              Version {asked} is not one of the latest {HISTORY} versions.{" "}
              <Link
                href="/constitution/evals"
                className="font-medium text-indigo-600 hover:underline"
              >
                Show the current version
              </Link>
              .
            </p>
          </Card>
        )}
        {hybrid ? (
          <Card title={`Hybrid path (lexical with embeddings), version ${entry!.versionId}`}>
            {"unavailable" in hybrid ? (
              <p role="alert" className="text-sm text-amber-800">
                Not measured: {hybrid.unavailable}
              </p>
            ) : (
              <div data-testid="hybrid-metrics">
                <EvalStatCards metrics={hybrid.metrics} thresholds={hybrid.thresholds} />
              </div>
            )}
          </Card>
        ) : null}
        {learned ? (
          <Card title={`Learned term weights, version ${entry!.versionId}`}>
            <LearnedCard status={learned} thresholds={run.thresholds} />
          </Card>
        ) : null}
        <Card title="Over versions">
          <EvalTrendChart points={trendPoints(history)} />
        </Card>
        <Card title={`Latest ${history.length} ${history.length === 1 ? "version" : "versions"}`}>
          <EvalVersionsTable history={history} selected={entry?.versionId ?? null} />
        </Card>
        {reviewed ? (
          <div id="reviewed-labels">
            <Card
              title={`Labels from review, version ${reviewed.versionId} (${reviewed.labels.length})`}
            >
              <ReviewedLabelsTable
                reviewed={reviewed}
                canRemove={roleAtLeast(user.role, "editor")}
              />
            </Card>
          </div>
        ) : null}
        {entry && run.caseCount > 0 ? (
          <div id="failures">
            <Card title={`Failures of version ${entry.versionId} (${run.failures.length})`}>
              <EvalFailures
                failures={run.failures}
                suggestVersionId={
                  entry.current && roleAtLeast(user.role, "editor") ? entry.versionId : undefined
                }
              />
            </Card>
          </div>
        ) : null}
      </div>
    </>
  );
}
