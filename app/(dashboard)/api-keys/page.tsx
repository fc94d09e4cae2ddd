import type { Metadata } from "next";
import { CreateApiKeyForm } from "@/components/api-keys/create-api-key-form";
import { RevokeApiKeyButton } from "@/components/api-keys/revoke-api-key-button";
import { Badge, Card, PageHeader, Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { requirePage } from "@/lib/auth/page";
import { apiKeys } from "@/lib/db/api-keys";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  await requirePage("admin");
  const rows = await apiKeys.list();
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys let agents and scripts call Charter: send one in the x-api-key header. The ingest scope reports events, read reads data. Keys are stored hashed and shown once."
      />
      <div className="grid gap-6 xl:grid-cols-[1fr_22rem]">
        <Card title={`${rows.length} ${rows.length === 1 ? "key" : "keys"}`}>
          <Table head={["Name", "Key", "Scopes", "Created", "Last used", ""]}>
            {rows.map((row) => (
              <tr key={row.id} data-testid={`api-key-${row.name}`}>
                <Td>
                  {row.name} {row.enabled ? null : <Badge tone="red">revoked</Badge>}
                </Td>
                <Td className="font-mono text-xs">{row.start ? `${row.start}…` : "—"}</Td>
                <Td>
                  <span className="flex gap-1">
                    {row.scopes.map((s) => (
                      <Badge key={s}>{s}</Badge>
                    ))}
                  </span>
                </Td>
                <Td>
                  <Time value={row.createdAt} />
                  {row.ownerEmail ? (
                    <span className="block text-xs text-slate-500">by {row.ownerEmail}</span>
                  ) : null}
                </Td>
                <Td>
                  <Time value={row.lastUsedAt} />
                </Td>
                <Td>{row.enabled ? <RevokeApiKeyButton id={row.id} name={row.name} /> : null}</Td>
              </tr>
            ))}
          </Table>
        </Card>
        <Card title="Create a key">
          <CreateApiKeyForm />
        </Card>
      </div>
    </>
  );
}
