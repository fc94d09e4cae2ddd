import type { Metadata } from "next";
import Link from "next/link";
import type { TrustRow } from "@/components/principles/rows";
import { TrustTable } from "@/components/principles/trust-table";
import { Card, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { principles } from "@/lib/db/principles";

export const metadata: Metadata = { title: "Principles" };

export default async function PrinciplesPage() {
  await requirePage("viewer");
  const list = await principles.withTrust();
  const rows: TrustRow[] = list.map((p) => ({
    id: p.id,
    title: p.title,
    level: p.level,
    domain: p.domain,
    inConstitution: p.inConstitution,
    useCount: p.useCount,
    successCount: p.successCount,
    raw: p.raw,
    smoothed: p.smoothed,
    lowerBound: p.lowerBound,
    trend: p.trend,
  }));
  const domains = [...new Set(rows.flatMap((r) => (r.domain ? [r.domain] : [])))].sort();
  return (
    <>
      <PageHeader
        title="Principles"
        description={
          <>
            How far each principle can be trusted, from the credit it earned in the sessions it was
            injected into. Uses count the sessions; successes sum their credit (0 to 1 each). Raw
            trust is successes over uses, smoothed trust is (successes + 1) / (uses + 2), and the
            lower bound (Wilson, 95%) ranks them so that two uses do not outrank two hundred.{" "}
            <Link href="/docs/principles" className="text-indigo-600 hover:underline">
              How trust is computed
            </Link>
          </>
        }
      />
      <Card title="Trust">
        {rows.length === 0 ? (
          <p className="text-sm text-slate-500">
            No principles yet: there is no constitution in force and nothing has been credited.
            Start at the{" "}
            <Link href="/constitution" className="text-indigo-600 hover:underline">
              Constitution
            </Link>
            .
          </p>
        ) : (
          <TrustTable rows={rows} domains={domains} />
        )}
      </Card>
    </>
  );
}
