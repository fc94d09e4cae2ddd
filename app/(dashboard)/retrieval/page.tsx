import type { Metadata } from "next";
import Link from "next/link";
import { NoConstitution } from "@/components/constitution/no-constitution";
import { PageHeader } from "@/components/ui/primitives";
import { RetrievalPlayground } from "@/components/retrieval/retrieval-playground";
import { requirePage } from "@/lib/auth/page";
import { roleAtLeast } from "@/lib/auth/roles";
import { labelChoices } from "@/lib/services/review-labels";
import { constitutionVersions } from "@/lib/db/constitution";

export const metadata: Metadata = { title: "Retrieval" };

type SearchParams = { searchParams: Promise<{ prompt?: string | string[] }> };

export default async function RetrievalPage({ searchParams }: SearchParams) {
  const user = await requirePage("viewer");
  const query = await searchParams;
  const prompt = (Array.isArray(query.prompt) ? query.prompt[0] : query.prompt) ?? "";
  const version = await constitutionVersions.current();
  const labels = version && roleAtLeast(user.role, "editor") ? await labelChoices() : null;
  return (
    <>
      <PageHeader
        title="Retrieval"
        description={
          <>
            Try a prompt and see which domains and principles Charter would inject, in conflict
            order, why each was chosen, and how it got there. Read{" "}
            <Link href="/docs/retrieval" className="font-medium text-indigo-600 hover:underline">
              how retrieval works
            </Link>
            .
          </>
        }
      />
      {version ? (
        <RetrievalPlayground
          key={prompt}
          domains={Object.keys(version.constitution.overlays)}
          initialPrompt={prompt}
          labels={labels}
        />
      ) : (
        <NoConstitution />
      )}
    </>
  );
}
