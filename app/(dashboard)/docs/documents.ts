import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";

/** The documents under docs/ served in the dashboard, in reading order; a slug is the file's name without `.md`. */
export const DOC_SLUGS = [
  "constitution",
  "retrieval",
  "evals",
  "turns",
  "sessions",
  "hooks",
  "agents",
  "principles",
  "playbook",
  "security",
  "deployment",
  "compatibility",
] as const;
export type DocSlug = (typeof DOC_SLUGS)[number];

export type DocSummary = { slug: DocSlug; title: string; summary: string };

export function isDocSlug(slug: string): slug is DocSlug {
  return (DOC_SLUGS as readonly string[]).includes(slug);
}

/** The file's Markdown text. Only slugs from DOC_SLUGS reach the file system. */
export async function readDoc(slug: DocSlug): Promise<string> {
  return readFile(path.join(process.cwd(), "docs", `${slug}.md`), "utf8");
}

/** Inline Markdown reduced to its words: code spans, emphasis and links lose their marks. */
function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`|\*\*/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The document's H1, or the slug when it has none. */
export function docTitle(slug: string, markdown: string): string {
  const heading = /^#\s+(.+)$/m.exec(markdown);
  return heading?.[1] ? plainText(heading[1]) : slug;
}

const SUMMARY_MAX = 160;

/** The index of the first ": " outside parentheses, or -1. */
function topLevelColon(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length - 1; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0 && text[i] === ":" && text[i + 1] === " ") return i;
  }
  return -1;
}

/** The first sentence of the first paragraph after the H1, as plain text. */
export function docSummary(markdown: string): string {
  const paragraph = markdown
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .find((block) => block.length > 0 && !/^(#|\||```|!\[|-|\d+\.)/.test(block));
  if (!paragraph) return "";
  const text = plainText(paragraph);
  const sentence = (/^.*?\.(?=\s|$)/.exec(text)?.[0] ?? text).replace(/:$/, ".");
  // A long first sentence that introduces a list is cut before the list.
  const colon = topLevelColon(sentence);
  return sentence.length > SUMMARY_MAX && colon > 0 ? `${sentence.slice(0, colon)}.` : sentence;
}

/** Every served document's title and one-line summary, read from its file. */
export async function listDocs(): Promise<DocSummary[]> {
  return Promise.all(
    DOC_SLUGS.map(async (slug) => {
      const text = await readDoc(slug);
      return { slug, title: docTitle(slug, text), summary: docSummary(text) };
    }),
  );
}
