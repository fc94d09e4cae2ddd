import { Table, Td } from "@/components/ui/primitives";
import { InlineCode } from "./inline-code";

export type FieldTableRow = {
  name: string;
  where?: string;
  type: string;
  required: boolean;
  description: string;
};

/** Parameters or body fields: name, type in words, whether required, and what it means. */
export function FieldTable({ rows, label }: { rows: FieldTableRow[]; label: string }) {
  const where = rows.some((r) => r.where);
  return (
    <div aria-label={label} role="region">
      <Table head={["Name", ...(where ? ["In"] : []), "Type", "Required", "Description"]}>
        {rows.map((row) => (
          <tr key={row.name}>
            <Td className="whitespace-nowrap font-mono text-xs text-slate-900">{row.name}</Td>
            {where ? <Td className="text-xs">{row.where}</Td> : null}
            <Td className="max-w-56 break-words font-mono text-xs text-slate-600">{row.type}</Td>
            <Td className="text-xs">{row.required ? "yes" : "no"}</Td>
            <Td className="text-xs">
              <InlineCode text={row.description} />
            </Td>
          </tr>
        ))}
      </Table>
    </div>
  );
}
