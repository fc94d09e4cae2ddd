import Link from "next/link";
import { Badge, Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import type { VersionMeta } from "@/lib/schemas/constitution-rows";
import { RollbackButton } from "./rollback-button";

/** Versions newest first; approvers get a rollback button on every version but the current one. */
export function VersionTable({
  versions,
  currentId,
  canRollback,
}: {
  versions: (VersionMeta & { current: boolean })[];
  currentId: number;
  canRollback: boolean;
}) {
  return (
    <Table head={["Version", "Message", "Author", "Saved", "Hash", ""]}>
      {versions.map((v) => (
        <tr key={v.id} data-testid={`version-${v.id}`}>
          <Td className="whitespace-nowrap">
            <span className="font-medium text-slate-900">{v.id}</span>{" "}
            {v.current ? <Badge tone="green">current</Badge> : null}
          </Td>
          <Td>{v.message}</Td>
          <Td>{v.authorLabel}</Td>
          <Td className="whitespace-nowrap">
            <Time value={v.createdAt} />
          </Td>
          <Td className="font-mono text-xs">{v.contentHash.slice(0, 10)}</Td>
          <Td>
            <div className="flex flex-col items-start gap-2">
              {v.current ? null : (
                <Link
                  href={`/constitution/history?a=${v.id}&b=${currentId}`}
                  className="text-sm text-indigo-600 hover:underline"
                >
                  Compare with current
                </Link>
              )}
              {canRollback && !v.current ? (
                <RollbackButton toVersionId={v.id} baseVersionId={currentId} />
              ) : null}
            </div>
          </Td>
        </tr>
      ))}
    </Table>
  );
}
