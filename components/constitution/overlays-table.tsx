import Link from "next/link";
import { Badge, Table, Td } from "@/components/ui/primitives";
import type { Overlay } from "@/lib/constitution/schema";

/** The domain overlays, each linking to its editor. */
export function OverlaysTable({ overlays }: { overlays: Overlay[] }) {
  return (
    <Table head={["Domain", "Description", "Keywords", "Principles", "Overrides", "Flags"]}>
      {overlays.map((o) => {
        const overrides = Object.entries(o.priority_overrides);
        return (
          <tr key={o.domain} data-testid={`overlay-${o.domain}`}>
            <Td className="whitespace-nowrap">
              <Link
                href={`/constitution/overlays/${o.domain}`}
                className="font-medium text-indigo-600 hover:underline"
              >
                {o.domain}
              </Link>
            </Td>
            <Td className="max-w-md">
              <span className="line-clamp-2" title={o.description}>
                {o.description || <span className="text-slate-400">—</span>}
              </span>
            </Td>
            <Td className="tabular-nums">{o.keywords.length}</Td>
            <Td className="tabular-nums">{o.additional_principles.length}</Td>
            <Td className="font-mono text-xs">
              {overrides.length === 0 ? (
                <span className="text-slate-400">—</span>
              ) : (
                overrides.map(([id, priority]) => (
                  <span key={id} className="block whitespace-nowrap">{`${id} → ${priority}`}</span>
                ))
              )}
            </Td>
            <Td>
              <span className="flex gap-1">
                {o.sensitive ? <Badge tone="amber">sensitive</Badge> : null}
                {o.excluded ? <Badge tone="slate">excluded</Badge> : null}
              </span>
            </Td>
          </tr>
        );
      })}
    </Table>
  );
}
