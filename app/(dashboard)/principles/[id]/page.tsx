import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LevelBadge } from "@/components/constitution/level-badge";
import { InjectedTurns } from "@/components/principles/injected-turns";
import { PrincipleTextView } from "@/components/principles/principle-text";
import { TrustChart } from "@/components/principles/trust-chart";
import { TrustByAgent } from "@/components/principles/trust-by-agent";
import { TrustNumbers } from "@/components/principles/trust-numbers";
import { UsageTable } from "@/components/principles/usage-table";
import { shortId } from "@/components/ui/format";
import { Card, ErrorText, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { orNotFound } from "@/lib/http/not-found";
import { isStorableText } from "@/lib/schemas/text";
import { principles } from "@/lib/db/principles";

export async function generateMetadata({
  params,
}: {
  params: Promise<{ id: string }>;
}): Promise<Metadata> {
  return { title: `Principle ${shortId((await params).id, 40)}` };
}

function VersionNote({
  hasText,
  version,
  current,
}: {
  hasText: boolean;
  version: number | null;
  current: boolean;
}) {
  if (!hasText)
    return (
      <ErrorText>
        This principle is in none of the recent constitution versions: only its credits remain.
      </ErrorText>
    );
  if (current)
    return (
      <p className="mb-3 text-xs text-slate-500">
        From constitution version {version}, the version in force.
      </p>
    );
  return (
    <p
      className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800"
      data-testid="older-version"
    >
      No longer in the constitution: this text is from version {version}, the newest version that
      had it.
    </p>
  );
}

export default async function PrinciplePage({ params }: { params: Promise<{ id: string }> }) {
  await requirePage("viewer");
  const { id } = await params;
  if (!isStorableText(id)) notFound();
  const detail = await orNotFound(principles.get(id));
  const text = detail.principle;
  return (
    <>
      <PageHeader
        title={text?.title ?? detail.id}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-slate-900" data-testid="principle-id">
              {detail.id}
            </span>
            {text ? (
              <>
                <LevelBadge level={text.level} />
                <span>priority {text.priority}</span>
                <span>domain {text.domain ?? "core"}</span>
              </>
            ) : null}
          </span>
        }
        actions={
          <Link
            href="/principles"
            className="whitespace-nowrap text-sm font-medium text-indigo-600 hover:underline"
          >
            All principles
          </Link>
        }
      />
      <div className="grid gap-6 xl:grid-cols-[1fr_22rem]">
        <div className="min-w-0 space-y-6">
          <Card title="Text">
            <VersionNote
              hasText={text !== null}
              version={detail.textVersion}
              current={detail.inCurrentVersion}
            />
            {text ? <PrincipleTextView text={text} /> : null}
          </Card>
          <Card title="Trust over time (90 days)">
            <TrustChart days={detail.daily} />
          </Card>
          <Card
            title={
              detail.usage.length < detail.trust.useCount
                ? `Credits (newest ${detail.usage.length} of ${detail.trust.useCount})`
                : `Credits (${detail.usage.length})`
            }
          >
            <UsageTable usage={detail.usage} />
          </Card>
        </div>
        <div className="space-y-6">
          <Card title="Trust">
            <TrustNumbers trust={detail.trust} />
          </Card>
          <Card title="Trust by agent">
            <TrustByAgent rows={detail.byAgent} />
          </Card>
          <Card title={`Injected into (${detail.turns.length} turns, newest first)`}>
            <InjectedTurns turns={detail.turns} />
          </Card>
        </div>
      </div>
    </>
  );
}
