import type { Metadata } from "next";
import { ConstitutionLinks, LINK_CLASS } from "@/components/constitution/section-links";
import Link from "next/link";
import { NoConstitution } from "@/components/constitution/no-constitution";
import { OverlaysTable } from "@/components/constitution/overlays-table";
import { PrinciplesTable, type PrincipleRow } from "@/components/constitution/principles-table";
import { VersionSummary } from "@/components/constitution/version-summary";
import { Card, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { roleAtLeast } from "@/lib/auth/roles";
import { orderByPrecedence } from "@/lib/constitution/conflict";
import { allPrinciples } from "@/lib/constitution/overlay";
import { constitutionVersions } from "@/lib/db/constitution";

export const metadata: Metadata = { title: "Constitution" };

export default async function ConstitutionPage() {
  const me = await requirePage("viewer");
  const version = await constitutionVersions.current();
  const header = (
    <PageHeader
      title="Constitution"
      description="The principles your agents follow: core hard constraints and soft norms, plus domain overlays that add principles and change priorities when a request belongs to their domain."
      actions={<ConstitutionLinks current="/constitution" />}
    />
  );
  if (!version) {
    return (
      <>
        {header}
        <NoConstitution />
      </>
    );
  }
  const overlays = Object.values(version.constitution.overlays);
  const principles: PrincipleRow[] = orderByPrecedence(allPrinciples(version.constitution)).map(
    (p) => ({
      id: p.id,
      level: p.level,
      priority: p.priority,
      title: p.title,
      rule: p.rule,
      keywords: p.keywords,
      domain: p.domain,
    }),
  );
  return (
    <>
      {header}
      <div className="mb-6">
        <VersionSummary version={version} />
      </div>
      <div className="space-y-6">
        <Card
          title={`Principles (${version.constitution.core.length} core, ${principles.length - version.constitution.core.length} in overlays)`}
          actions={
            <Link href="/constitution/core" className={LINK_CLASS}>
              {roleAtLeast(me.role, "editor") ? "Edit core principles" : "View core principles"}
            </Link>
          }
        >
          <PrinciplesTable principles={principles} domains={overlays.map((o) => o.domain)} />
        </Card>
        <Card title={`${overlays.length} overlays`}>
          <OverlaysTable overlays={overlays} />
        </Card>
      </div>
    </>
  );
}
