import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CoreEditor } from "@/components/constitution/core-editor";
import { NoConstitution } from "@/components/constitution/no-constitution";
import { VersionSummary } from "@/components/constitution/version-summary";
import { PageHeader } from "@/components/ui/primitives";
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
      <PageHeader
        title="Core principles"
        description={
          <>
            <Link href="/constitution" className="font-medium text-indigo-600 hover:underline">
              Constitution
            </Link>{" "}
            / {CORE_FILE}: {version.constitution.core.length} principles, always active
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
      <CoreEditor original={file.text} files={version.files} baseVersionId={version.id} canEdit={roleAtLeast(me.role, "editor")} />
    </>
  );
}
