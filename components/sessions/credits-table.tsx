import Link from "next/link";
import { Table, Td } from "@/components/ui/primitives";
import { CreditBar } from "./credit-bar";
import type { SessionOutcome } from "./types";

/** The credit each injected principle earned from the session, with the credit-assignment spec's reasoning. */
export function CreditsTable({
  credits,
  titles,
}: {
  credits: SessionOutcome["credits"];
  titles: Map<string, string>;
}) {
  if (credits.length === 0)
    return (
      <p className="text-sm text-slate-500">
        No principle was injected in this session, so none was credited.
      </p>
    );
  return (
    <Table head={["Principle", "Credit", "Reasoning"]}>
      {credits.map((c) => (
        <tr key={c.principle_id} data-testid={`credit-${c.principle_id}`}>
          <Td>
            <Link
              href={`/principles/${encodeURIComponent(c.principle_id)}`}
              className="font-mono text-xs text-indigo-600 hover:underline"
            >
              {c.principle_id}
            </Link>
            {titles.has(c.principle_id) ? (
              <span className="block text-xs text-slate-500">{titles.get(c.principle_id)}</span>
            ) : null}
          </Td>
          <Td>
            <CreditBar credit={c.credit} />
          </Td>
          <Td className="font-mono text-xs">{c.reasoning}</Td>
        </tr>
      ))}
    </Table>
  );
}
