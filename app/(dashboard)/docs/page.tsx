import type { Metadata } from "next";
import Link from "next/link";
import { Card, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { listDocs } from "./documents";

export const metadata: Metadata = { title: "Docs" };

export default async function DocsIndexPage() {
  await requirePage("viewer");
  const docs = await listDocs();
  return (
    <>
      <PageHeader
        title="Docs"
        description="How each part of Charter works: the same Markdown files as docs/ in the repository."
      />
      <Card>
        <ul className="divide-y divide-slate-100" data-testid="docs-index">
          {docs.map((doc) => (
            <li key={doc.slug} className="py-3 first:pt-0 last:pb-0">
              <Link
                href={`/docs/${doc.slug}`}
                className="font-medium text-indigo-600 hover:underline"
              >
                {doc.title}
              </Link>
              {doc.summary ? <p className="mt-0.5 text-sm text-slate-600">{doc.summary}</p> : null}
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}
