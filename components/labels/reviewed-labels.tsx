import Link from "next/link";
import { shortId } from "@/components/ui/format";
import { Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import type { ReviewedLabels } from "@/lib/schemas/labels";
import { IdList } from "./label-case";
import { RemoveLabelButton } from "./remove-label-button";

const link = "font-mono text-xs text-indigo-600 hover:underline";

/** Where a label was made: its turn and session, linked, or the Retrieval page. */
function Provenance({ source }: { source: ReviewedLabels["labels"][number]["source"] }) {
  if (!source) return <span className="text-slate-400">written by hand</span>;
  if (!source.turn_id && !source.session_id)
    return <span className="text-slate-600">Retrieval page</span>;
  return (
    <span className="flex flex-col gap-0.5">
      {source.turn_id ? (
        <span>
          turn{" "}
          <Link href={`/turns/${encodeURIComponent(source.turn_id)}`} className={link}>
            {shortId(source.turn_id)}
          </Link>
        </span>
      ) : null}
      {source.session_id ? (
        <span>
          session{" "}
          <Link href={`/sessions/${encodeURIComponent(source.session_id)}`} className={link}>
            {shortId(source.session_id)}
          </Link>
        </span>
      ) : null}
    </span>
  );
}

/**
 * The eval cases made from reviewers' labels in the version in force (eval/reviewed.yaml):
 * prompt, domains, expected and forbidden principles, where and by whom and when; editors
 * can remove one.
 */
export function ReviewedLabelsTable({
  reviewed,
  canRemove,
}: {
  reviewed: ReviewedLabels;
  canRemove: boolean;
}) {
  const { labels, versionId } = reviewed;
  return (
    <Table
      head={[
        "Prompt",
        "Domains",
        "Expect",
        "Forbid",
        "From",
        "By",
        "When",
        ...(canRemove ? [""] : []),
      ]}
      empty={
        labels.length ? null : (
          <p className="px-3 py-4 text-sm text-slate-500">
            No labels yet. Label a prompt on a turn, a session or the Retrieval page.
          </p>
        )
      }
    >
      {labels.map((l, i) => (
        <tr key={l.prompt} data-testid="reviewed-label">
          <Td className="max-w-md">
            <p className="max-h-32 overflow-auto whitespace-pre-wrap break-words text-slate-900">
              {l.prompt}
            </p>
            {l.note ? <p className="mt-1 text-xs text-slate-500">{l.note}</p> : null}
          </Td>
          <Td>
            <IdList ids={l.domains} empty="none" />
          </Td>
          <Td>
            <IdList ids={l.expect} />
          </Td>
          <Td>
            <IdList ids={l.forbid} />
          </Td>
          <Td>
            <Provenance source={l.source} />
          </Td>
          <Td className="break-words">{l.source?.by ?? ""}</Td>
          <Td className="whitespace-nowrap">{l.source ? <Time value={l.source.at} /> : null}</Td>
          {canRemove ? (
            <Td>
              <RemoveLabelButton prompt={l.prompt} versionId={versionId} row={i + 1} />
            </Td>
          ) : null}
        </tr>
      ))}
    </Table>
  );
}
