import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CreditsTable } from "@/components/sessions/credits-table";
import { OutcomeSummary } from "@/components/sessions/outcome-summary";
import { PromptTimeline } from "@/components/sessions/prompt-timeline";
import { SessionTools } from "@/components/sessions/session-tools";
import { Card, PageHeader } from "@/components/ui/primitives";
import { SessionHeader } from "@/components/sessions/session-header";
import { shortId } from "@/components/ui/format";
import { requirePage } from "@/lib/auth/page";
import { orNotFound } from "@/lib/http/not-found";
import { isStorableText } from "@/lib/schemas/text";
import { constitutionVersions } from "@/lib/db/constitution";
import { keyPoints } from "@/lib/db/key-points";
import { reflections } from "@/lib/db/reflections";
import { sessions } from "@/lib/db/sessions";
import { SessionPlaybook } from "@/components/sessions/session-playbook";
import { SessionLabel } from "@/components/labels/session-label";
import { labelChoices } from "@/lib/services/review-labels";
import { roleAtLeast } from "@/lib/auth/roles";
import { llmSettings } from "@/lib/env";
import { NO_LLM_MESSAGE } from "@/lib/services/reflect";
import { routeParam } from "@/lib/http/route-param";

export async function generateMetadata({
  params,
}: {
  params: Promise<{ id: string }>;
}): Promise<Metadata> {
  // From the URL alone: a title must not show a prompt to whoever opens the link before signing in.
  return { title: `Session ${shortId(routeParam((await params).id))}` };
}

const link = "whitespace-nowrap text-sm font-medium text-indigo-600 hover:underline";

export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePage("viewer");
  const id = routeParam((await params).id);
  if (!isStorableText(id)) notFound();
  const [{ session, turns, toolCalls, outcome }, titles, reflection] = await Promise.all([
    orNotFound(sessions.get(id)),
    constitutionVersions.titles(),
    reflections.latest(id),
  ]);
  const injected = await keyPoints.byNames([...new Set(turns.flatMap((t) => t.injectedKeyPoints))]);
  const canEdit = roleAtLeast(user.role, "editor");
  const prompts = turns.filter((t) => t.prompt);
  const choices = canEdit && prompts.length ? await labelChoices() : null;
  return (
    <>
      <PageHeader
        title="Session"
        actions={
          <div className="flex gap-4">
            <Link href={`/turns?session=${encodeURIComponent(session.id)}`} className={link}>
              Its turns
            </Link>
            <Link href="/sessions" className={link}>
              All sessions
            </Link>
          </div>
        }
      />
      <div className="mb-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <SessionHeader
          session={session}
          firstPrompt={turns.find((t) => t.prompt)?.prompt ?? null}
          turns={turns.length}
          toolCalls={toolCalls.length}
          outcome={outcome ? { status: outcome.status, score: outcome.score } : null}
        />
      </div>
      <div className="grid gap-6 xl:grid-cols-[1fr_24rem]">
        <div className="min-w-0 space-y-6">
          <Card title={`Prompts (${turns.length})`}>
            <PromptTimeline turns={turns} titles={titles} />
          </Card>
          <Card title={`Tool calls (${toolCalls.length})`}>
            <SessionTools calls={toolCalls} titles={titles} />
          </Card>
          <Card title="Credit per principle">
            {outcome ? (
              <CreditsTable credits={outcome.credits} titles={titles} />
            ) : (
              <p className="text-sm text-slate-500">
                The principles injected in this session are credited when it ends (SessionEnd).
              </p>
            )}
          </Card>
        </div>
        <div className="space-y-6">
          <Card title="Outcome">
            <OutcomeSummary outcome={outcome} />
          </Card>
          <SessionPlaybook
            sessionId={session.id}
            injected={injected.map((k) => ({
              name: k.name,
              text: k.text,
              helpful: k.helpful,
              harmful: k.harmful,
            }))}
            reflection={reflection}
            canReflect={canEdit}
            llmConfigured={llmSettings() !== null}
            noLlmMessage={NO_LLM_MESSAGE}
          />
          {choices ? (
            <Card title="Label for the eval set">
              <SessionLabel
                choices={choices}
                prompts={prompts.map((t) => ({
                  turnId: t.id,
                  number: t.number,
                  prompt: t.prompt,
                  injected: t.injectedPrinciples.length
                    ? t.injectedPrinciples
                    : t.retrievedPrinciples,
                }))}
              />
            </Card>
          ) : null}
        </div>
      </div>
    </>
  );
}
