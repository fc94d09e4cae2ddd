import Link from "next/link";
import { Card, PageHeader } from "@/components/ui/primitives";

/** A section whose data arrives in a later release: says what it will show and where it is documented. */
export function PlannedPage({
  title,
  summary,
  will,
  docs,
}: {
  title: string;
  summary: string;
  will: string[];
  docs: string;
}) {
  return (
    <>
      <PageHeader title={title} description={summary} />
      <Card title="What this page will show">
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
          {will.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <p className="mt-4 text-sm text-slate-600">
          Nothing is recorded here yet. Read{" "}
          <Link className="font-medium text-indigo-600 hover:underline" href={`/docs/${docs}`}>
            the {title.toLowerCase()} documentation
          </Link>{" "}
          for how it works.
        </p>
      </Card>
    </>
  );
}
