import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { NoConstitution } from "@/components/constitution/no-constitution";
import { OverlayEditor } from "@/components/constitution/overlay-editor";
import { VersionSummary } from "@/components/constitution/version-summary";
import { Badge, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { roleAtLeast } from "@/lib/auth/roles";
import { OVERLAYS_DIR } from "@/lib/constitution/schema";
import { constitutionVersions } from "@/lib/db/constitution";

type Params = { params: Promise<{ domain: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `Overlay ${(await params).domain}` };
}

export default async function OverlayPage({ params }: Params) {
  const me = await requirePage("viewer");
  const { domain } = await params;
  const version = await constitutionVersions.current();
  if (!version) return <NoConstitution />;
  const overlay = version.constitution.overlays[domain];
  if (!overlay) notFound();
  const file = version.files.find((f) => f.path === `${OVERLAYS_DIR}/${domain}.yaml` || f.path === `${OVERLAYS_DIR}/${domain}.yml`);
  if (!file) notFound();
  return (
    <>
      <PageHeader
        title={`Overlay: ${domain}`}
        description={
          <>
            <Link href="/constitution" className="font-medium text-indigo-600 hover:underline">
              Constitution
            </Link>{" "}
            / {file.path} {overlay.sensitive ? <Badge tone="amber">sensitive</Badge> : null}
          </>
        }
        actions={
          <Link href="/constitution/history" className="text-sm font-medium text-indigo-600 hover:underline">
            History
          </Link>
        }
      />
      <div className="mb-4">
        <VersionSummary version={version} />
      </div>
      <OverlayEditor domain={domain} path={`${OVERLAYS_DIR}/${domain}.yaml`} original={file.text} files={version.files} baseVersionId={version.id} canEdit={roleAtLeast(me.role, "editor")} />
    </>
  );
}
