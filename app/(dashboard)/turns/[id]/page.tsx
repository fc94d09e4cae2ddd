import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LabelPanel } from "@/components/labels/label-panel";
import { shortId } from "@/components/ui/format";
import { Card, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { orNotFound } from "@/lib/http/not-found";
import { isStorableText } from "@/lib/schemas/text";
import { roleAtLeast } from "@/lib/auth/roles";
import { constitutionVersions } from "@/lib/db/constitution";
import { turns } from "@/lib/db/turns";
import { routeParam } from "@/lib/http/route-param";
import { labelChoices } from "@/lib/services/review-labels";
import { TurnDescription, TurnExchange, TurnReview, TurnScores } from "./sections";

export async function generateMetadata({
  params,
}: {
  params: Promise<{ id: string }>;
}): Promise<Metadata> {
  // From the URL alone: a title must not show a prompt to whoever opens the link before signing in.
  return { title: `Turn ${shortId(routeParam((await params).id))}` };
}

export default async function TurnPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePage("viewer");
  const id = routeParam((await params).id);
  if (!isStorableText(id)) notFound();
  const [view, titles] = await Promise.all([
    orNotFound(turns.get(id)),
    constitutionVersions.titles(),
  ]);
  const canEdit = roleAtLeast(user.role, "editor");
  const { turn } = view;
  const choices = canEdit && turn.prompt ? await labelChoices() : null;
  return (
    <>
      <PageHeader
        title={`Turn ${view.turn.number}`}
        description={<TurnDescription turn={view.turn} />}
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
          <TurnScores view={view} />
          <TurnExchange view={view} />
        </div>
        <div className="space-y-6">
          <TurnReview view={view} titles={titles} canOverride={canEdit} />
          {choices ? (
            <Card title="Label for the eval set">
              <p className="mb-3 text-sm text-slate-600">
                Were the right principles injected for this prompt? A label becomes an eval case of
                the constitution, in a new version.
              </p>
              <LabelPanel
                prompt={turn.prompt}
                turnId={turn.id}
                injected={
                  turn.injectedPrinciples.length
                    ? turn.injectedPrinciples
                    : turn.retrievedPrinciples
                }
                choices={choices}
              />
            </Card>
          ) : null}
        </div>
      </div>
    </>
  );
}
