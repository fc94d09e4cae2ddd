import { readFile } from "node:fs/promises";
import path from "node:path";
import { notFound } from "next/navigation";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { requirePage } from "@/lib/auth/page";

const DOCS = ["constitution", "turns", "sessions", "principles", "playbook", "retrieval", "evals", "compatibility"] as const;

export default async function DocPage({ params }: { params: Promise<{ slug: string }> }) {
  await requirePage("viewer");
  const { slug } = await params;
  if (!(DOCS as readonly string[]).includes(slug)) notFound();
  const text = await readFile(path.join(process.cwd(), "docs", `${slug}.md`), "utf8");
  // react-markdown renders no raw HTML, so nothing in a document can inject markup.
  return (
    <article className="prose max-w-3xl space-y-3 text-sm leading-6 text-slate-700 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_h1]:text-2xl [&_h1]:font-semibold [&_h1]:text-slate-900 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-900 [&_pre]:p-3 [&_pre]:text-slate-100 [&_table]:text-left [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2 [&_ul]:list-disc [&_ul]:pl-5">
      <Markdown remarkPlugins={[remarkGfm]}>{text}</Markdown>
    </article>
  );
}
