import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { InjectedPrinciples } from "@/components/turns/injected-principles";
import { OverrideForm } from "@/components/turns/override-form";
import { OverrideList } from "@/components/turns/override-list";
import { ScoreChart } from "@/components/turns/score-chart";
import { ScoreTable } from "@/components/turns/score-table";
import { shortId } from "@/components/ui/format";
import { ToolList } from "@/components/turns/tool-list";
import { TurnTotals } from "@/components/turns/turn-totals";
import { Badge, Card, PageHeader } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { requirePage } from "@/lib/auth/page";
import { orNotFound } from "@/lib/http/not-found";
import { isStorableText } from "@/lib/schemas/text";
import { roleAtLeast } from "@/lib/auth/roles";
import { constitutionVersions } from "@/lib/db/constitution";
import { turns } from "@/lib/db/turns";
import { PRINCIPLES } from "@/lib/reward";
import { routeParam } from "@/lib/http/route-param";

export async function generateMetadata({
  params,
}: {
  params: Promise<{ id: string }>;
}): Promise<Metadata> {
  // From the URL alone: a title must not show a prompt to whoever opens the link before signing in.
  return { title: `Turn ${shortId(routeParam((await params).id))}` };
}

const pre =
  "max-h-96 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-3 font-mono text-xs text-slate-800";

export default async function TurnPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePage("viewer");
  const id = routeParam((await params).id);
  if (!isStorableText(id)) notFound();
  const [{ turn, tools, weights, effective, engine }, titles] = await Promise.all([
    orNotFound(turns.get(id)),
    constitutionVersions.titles(),
  ]);
  const score = turn.score;
  const sessionHref = `/turns?session=${encodeURIComponent(turn.sessionId)}`;

  return (
    <>
      <PageHeader
        title={`Turn ${turn.number}`}
        description={
          <>
            Session{" "}
            <Link href={sessionHref} className="font-mono text-indigo-600 hover:underline">
              {turn.sessionId}
            </Link>
            , started <Time value={turn.startedAt} />
            {turn.stoppedAt ? (
              <>
                , stopped <Time value={turn.stoppedAt} />
              </>
            ) : null}
            . Action <code>{turn.action}</code>.
          </>
        }
        actions={
          <Link
            href="/turns"
            className="whitespace-nowrap text-sm font-medium text-indigo-600 hover:underline"
          >
            All turns
          </Link>
        }
      />
      <div className="grid gap-6 xl:grid-cols-[1fr_22rem]">
        <div className="min-w-0 space-y-6">
          {score && effective ? (
            <Card title="Scores">
              <ScoreChart
                bars={PRINCIPLES.map((p) => ({
                  principle: p,
                  engine: engine[p],
                  effective: effective[p],
                }))}
              />
              <ScoreTable engine={engine} effective={effective} weights={weights?.weights ?? {}} />
            </Card>
          ) : (
            <Card title="Scores">
              <p className="text-sm text-slate-600">
                Not scored yet: the turn is scored when the agent stops.
              </p>
            </Card>
          )}
          {score ? (
            <Card title="Reasoning">
              <p
                data-testid="reasoning"
                className="whitespace-pre-wrap break-words text-sm text-slate-800"
              >
                {score.reasoning}
              </p>
            </Card>
          ) : null}
          <Card title="Prompt">
            {turn.prompt ? (
              <pre data-testid="turn-prompt" className={pre}>
                {turn.prompt}
              </pre>
            ) : (
              <p className="text-sm text-slate-500">No prompt was reported.</p>
            )}
          </Card>
          <Card title="Response">
            {turn.response !== null ? (
              <pre data-testid="turn-response" className={pre}>
                {turn.response}
              </pre>
            ) : (
              <p className="text-sm text-slate-500">No response yet.</p>
            )}
          </Card>
          <Card
            title={`Tools (${tools.length})`}
            actions={
              turn.toolsPassed === null ? null : (
                <span className="flex gap-1">
                  <Badge tone={turn.toolsPassed ? "green" : "red"}>
                    {turn.toolsPassed ? "all passed" : "some failed"}
                  </Badge>
                  {turn.hasMutations ? <Badge tone="amber">changed files</Badge> : null}
                </span>
              )
            }
          >
            <ToolList tools={tools} />
          </Card>
        </div>
        <div className="space-y-6">
          <Card title="Total">
            {score ? (
              <TurnTotals score={score} weights={weights} />
            ) : (
              <p className="text-sm text-slate-500">No total until the turn is scored.</p>
            )}
          </Card>
          {score && roleAtLeast(user.role, "editor") ? (
            <Card title="Override a score">
              <OverrideForm turnId={turn.id} />
            </Card>
          ) : null}
          <Card title={`Overrides (${turn.overrides.length})`}>
            <OverrideList overrides={turn.overrides} engine={engine} />
          </Card>
          <Card title={`Principles injected (${turn.injectedPrinciples.length})`}>
            <InjectedPrinciples
              ids={turn.injectedPrinciples}
              retrieved={turn.retrievedPrinciples}
              delivery={turn.contextDelivery}
              titles={titles}
            />
            {turn.constitutionVersionId ? (
              <p className="mt-2 text-xs text-slate-500">
                Retrieved from constitution version {turn.constitutionVersionId}; titles are from
                the current version.
              </p>
            ) : null}
          </Card>
        </div>
      </div>
    </>
  );
}
