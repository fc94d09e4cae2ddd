import type { Metadata } from "next";
import Link from "next/link";
import { Card, PageHeader } from "@/components/ui/primitives";
import { NAV_ITEMS } from "@/components/shell/nav-items";
import { requirePage } from "@/lib/auth/page";

export const metadata: Metadata = { title: "Overview" };

const BLURBS: Record<string, string> = {
  "/constitution": "Edit the principles and overlays agents follow.",
  "/turns": "Review how each agent turn scored.",
  "/sessions": "See how sessions went and which principles earned credit.",
  "/principles": "Watch each principle's trust ratio.",
  "/playbook": "Curate learned key points and approve pruning.",
  "/retrieval": "Try a prompt against the constitution.",
};

export default async function OverviewPage() {
  const user = await requirePage("viewer");
  return (
    <>
      <PageHeader title="Overview" description={`Signed in as ${user.name || user.email}. Charter governs your AI agents with a written constitution.`} />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {NAV_ITEMS.filter((item) => item.href !== "/").map((item) => (
          <Link key={item.href} href={item.href} className="block">
            <Card title={item.label}>
              <p className="text-sm text-slate-600">{BLURBS[item.href]}</p>
            </Card>
          </Link>
        ))}
      </div>
    </>
  );
}
