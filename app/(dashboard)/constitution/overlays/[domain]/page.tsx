import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NoConstitution } from "@/components/constitution/no-constitution";
import { OverlayEditor } from "@/components/constitution/overlay-editor";
import { FileEditorHeader } from "@/components/constitution/file-editor-header";
import { Badge } from "@/components/ui/primitives";
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
  const file = version.files.find(
    (f) =>
      f.path === `${OVERLAYS_DIR}/${domain}.yaml` || f.path === `${OVERLAYS_DIR}/${domain}.yml`,
  );
  if (!file) notFound();
  return (
    <>
      <FileEditorHeader
        title={`Overlay: ${domain}`}
        crumb={
          <>
            {file.path} {overlay.sensitive ? <Badge tone="amber">sensitive</Badge> : null}
          </>
        }
        version={version}
      />
      <OverlayEditor
        domain={domain}
        path={`${OVERLAYS_DIR}/${domain}.yaml`}
        original={file.text}
        files={version.files}
        baseVersionId={version.id}
        canEdit={roleAtLeast(me.role, "editor")}
      />
    </>
  );
}
