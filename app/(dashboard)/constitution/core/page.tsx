import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CoreEditor } from "@/components/constitution/core-editor";
import { NoConstitution } from "@/components/constitution/no-constitution";
import { FileEditorHeader } from "@/components/constitution/file-editor-header";
import { requirePage } from "@/lib/auth/page";
import { roleAtLeast } from "@/lib/auth/roles";
import { CORE_FILE } from "@/lib/constitution/schema";
import { constitutionVersions } from "@/lib/db/constitution";

export const metadata: Metadata = { title: "Core principles" };

export default async function CorePage() {
  const me = await requirePage("viewer");
  const version = await constitutionVersions.current();
  if (!version) return <NoConstitution />;
  const file = version.files.find((f) => f.path === CORE_FILE);
  if (!file) notFound();
  return (
    <>
      <FileEditorHeader
        title="Core principles"
        crumb={
          <>
            {CORE_FILE}: {version.constitution.core.length} principles, in every domain; each is
            injected when a prompt matches it (relevance 0.5 or more)
          </>
        }
        version={version}
      />
      <CoreEditor
        original={file.text}
        files={version.files}
        baseVersionId={version.id}
        canEdit={roleAtLeast(me.role, "editor")}
      />
    </>
  );
}
