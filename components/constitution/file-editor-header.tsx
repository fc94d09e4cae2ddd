import Link from "next/link";
import type { ReactNode } from "react";
import { PageHeader } from "@/components/ui/primitives";
import type { VersionMeta } from "@/lib/schemas/constitution-rows";
import { VersionSummary } from "./version-summary";

/** The header of a constitution file's editor page: title, a crumb back to the constitution, History, and the version edited. */
export function FileEditorHeader({
  title,
  crumb,
  version,
}: {
  title: string;
  crumb: ReactNode;
  version: VersionMeta;
}) {
  return (
    <>
      <PageHeader
        title={title}
        description={
          <>
            <Link href="/constitution" className="font-medium text-indigo-600 hover:underline">
              Constitution
            </Link>{" "}
            / {crumb}
          </>
        }
        actions={
          <Link
            href="/constitution/history"
            className="text-sm font-medium text-indigo-600 hover:underline"
          >
            History
          </Link>
        }
      />
      <div className="mb-4">
        <VersionSummary version={version} />
      </div>
    </>
  );
}
