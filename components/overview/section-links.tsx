import Link from "next/link";
import { NAV_ITEMS } from "@/components/shell/nav-items";
import { Card } from "@/components/ui/primitives";

const BLURBS: Record<string, string> = {
  "/constitution": "Edit the principles and overlays agents follow.",
  "/turns": "Review how each agent turn scored.",
  "/sessions": "See how sessions went and which principles earned credit.",
  "/principles": "Watch each principle's trust ratio.",
  "/playbook": "Curate learned key points and approve pruning.",
  "/retrieval": "Try a prompt against the constitution.",
  "/api-docs": "Report agent events over REST.",
  "/docs": "Read how Charter scores turns, credits principles and curates the playbook.",
};

/** A card per dashboard section. */
export function SectionLinks() {
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {NAV_ITEMS.filter((item) => item.href !== "/").map((item) => (
        <Link key={item.href} href={item.href} className="block">
          <Card title={item.label}>
            <p className="text-sm text-slate-600">{BLURBS[item.href]}</p>
          </Card>
        </Link>
      ))}
    </div>
  );
}
