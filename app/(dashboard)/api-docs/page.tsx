import type { Metadata } from "next";
import Link from "next/link";
import { CurlExample } from "@/components/api-docs/curl-example";
import { OperationCard } from "@/components/api-docs/operation-card";
import { HTTP_METHODS, type OpenApiDoc } from "@/components/api-docs/types";
import { Card, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { baseUrl } from "@/lib/env";
import { openApiDocument } from "@/lib/http/openapi";

export const metadata: Metadata = { title: "API" };

const link = "font-medium text-indigo-600 hover:underline";

export default async function ApiDocsPage() {
  await requirePage("viewer");
  const base = baseUrl();
  const doc: OpenApiDoc = openApiDocument(base);
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const op = item[method];
      return op ? [{ path, method, op }] : [];
    }),
  );
  return (
    <>
      <PageHeader
        title="API"
        description={
          <>
            {doc.info.title} {doc.info.version}: {doc.info.description} The machine-readable
            document is at{" "}
            <a href="/api/v1/openapi.json" className={link}>
              /api/v1/openapi.json
            </a>
            .
          </>
        }
      />
      <div className="space-y-6">
        <Card title="Report an event">
          <div className="space-y-3 text-sm text-slate-700">
            <p>
              Make a key with the <code>ingest</code> scope on the{" "}
              <Link href="/api-keys" className={link}>
                API keys
              </Link>{" "}
              page (admins), then send it in the <code>x-api-key</code> header. Each event carries a
              unique <code>id</code>; sending the same id again is recognised and not applied twice.
              A turn is scored when its <code>Stop</code> event arrives.
            </p>
            <CurlExample baseUrl={base} />
            <p className="text-xs text-slate-500">
              Server: <code>{doc.servers?.[0]?.url ?? base}</code>. Claude Code reports these events
              for you once <code>charter hooks install</code> has set up its hooks.
            </p>
          </div>
        </Card>
        {operations.map(({ path, method, op }) => (
          <OperationCard key={`${method} ${path}`} path={path} method={method} op={op} doc={doc} />
        ))}
      </div>
    </>
  );
}
