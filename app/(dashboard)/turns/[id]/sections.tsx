import Link from "next/link";
import { InjectedPrinciples } from "@/components/turns/injected-principles";
import { OverrideForm } from "@/components/turns/override-form";
import { OverrideList } from "@/components/turns/override-list";
import { ScoreChart } from "@/components/turns/score-chart";
import { ScoreTable } from "@/components/turns/score-table";
import { ToolList } from "@/components/turns/tool-list";
import { TurnTotals } from "@/components/turns/turn-totals";
import { Badge, Card } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import type { turns } from "@/lib/db/turns";
import { PRINCIPLES } from "@/lib/reward";

/** A turn as its page shows it: the turn, its tool calls, its weights and its scores. */
type TurnView = NonNullable<Awaited<ReturnType<typeof turns.get>>>;

const pre =
  "max-h-96 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-3 font-mono text-xs text-slate-800";

/** The line under the title: the session (linked), when the turn started and stopped, its action. */
export function TurnDescription({ turn }: { turn: TurnView["turn"] }) {
  const sessionHref = `/turns?session=${encodeURIComponent(turn.sessionId)}`;
  return (
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
  );
}

/** The seven principles' scores (engine and in effect) and the engine's reasoning. */
export function TurnScores({ view }: { view: TurnView }) {
  const { turn, weights, effective, engine } = view;
  const score = turn.score;
  return (
    <>
      <Card title="Scores">
        {score && effective ? (
          <>
            <ScoreChart
              bars={PRINCIPLES.map((p) => ({
                principle: p,
                engine: engine[p],
                effective: effective[p],
              }))}
            />
            <ScoreTable engine={engine} effective={effective} weights={weights?.weights ?? {}} />
          </>
        ) : (
          <p className="text-sm text-slate-600">
            Not scored yet: the turn is scored when the agent stops.
          </p>
        )}
      </Card>
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
    </>
  );
}

/** What passed between the person and the agent: the prompt, the response and the tool calls. */
export function TurnExchange({ view }: { view: TurnView }) {
  const { turn, tools } = view;
  return (
    <>
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
    </>
  );
}

/** The reviewer's column: the total, overriding a score (editors), the overrides, and the principles injected. */
export function TurnReview({
  view,
  titles,
  canOverride,
}: {
  view: TurnView;
  titles: Map<string, string>;
  canOverride: boolean;
}) {
  const { turn, weights, engine } = view;
  const score = turn.score;
  return (
    <>
      <Card title="Total">
        {score ? (
          <TurnTotals score={score} weights={weights} />
        ) : (
          <p className="text-sm text-slate-500">No total until the turn is scored.</p>
        )}
      </Card>
      {score && canOverride ? (
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
            Retrieved from constitution version {turn.constitutionVersionId}; titles are from the
            current version.
          </p>
        ) : null}
      </Card>
    </>
  );
}
