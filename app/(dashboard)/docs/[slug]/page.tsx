import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { requirePage } from "@/lib/auth/page";
import { docTitle, isDocSlug, readDoc } from "../documents";

type Params = { params: Promise<{ slug: string }> };

/** The tab shows the document's own H1; the text is read again by the page (a small local file). */
export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { slug } = await params;
  if (!isDocSlug(slug)) return { title: "Not found" };
  return { title: docTitle(slug, await readDoc(slug)) };
}

export default async function DocPage({ params }: Params) {
  await requirePage("viewer");
  const { slug } = await params;
  if (!isDocSlug(slug)) notFound();
  const text = await readDoc(slug);
  // react-markdown renders no raw HTML, so nothing in a document can inject markup.
  return (
    <>
      <Link href="/docs" className="mb-4 inline-block text-sm text-indigo-600 hover:underline">
        ← All docs
      </Link>
      <article className="prose max-w-3xl space-y-3 text-sm leading-6 text-slate-700 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_h1]:text-2xl [&_h1]:font-semibold [&_h1]:text-slate-900 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-900 [&_pre]:p-3 [&_pre]:text-slate-100 [&_table]:text-left [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2 [&_ul]:list-disc [&_ul]:pl-5">
        <Markdown remarkPlugins={[remarkGfm]}>{text}</Markdown>
      </article>
    </>
  );
}
