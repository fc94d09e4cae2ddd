import Link from "next/link";
import type { ReactNode } from "react";
import { Nav } from "@/components/shell/nav";
import { ADMIN_ITEMS, NAV_ITEMS } from "@/components/shell/nav-items";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { Badge } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { roleAtLeast } from "@/lib/auth/roles";
import { health } from "@/lib/db/health";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requirePage("viewer");
  const adminItems = ADMIN_ITEMS.filter((item) => roleAtLeast(user.role, item.role));
  return (
    <div className="min-h-screen">
      <header className="flex h-14 items-center justify-between border-b border-slate-200 bg-white px-6">
        <Link href="/" className="flex items-center gap-2 font-semibold text-slate-900">
          <img src="/icon.svg" alt="" width={24} height={24} />
          Charter
        </Link>
        <div className="flex items-center gap-3 text-sm text-slate-600">
          <Badge tone={health.kind() === "embedded" ? "amber" : "green"}>
            {health.kind() === "embedded" ? "embedded database" : "PostgreSQL"}
          </Badge>
          <span data-testid="current-user">{user.email}</span>
          <Badge tone="indigo">{user.role}</Badge>
          <SignOutButton />
        </div>
      </header>
      <div className="flex">
        <nav
          aria-label="Main"
          className="w-56 shrink-0 border-r border-slate-200 bg-white px-3 py-6"
          style={{ minHeight: "calc(100vh - 3.5rem)" }}
        >
          <Nav items={NAV_ITEMS} />
          <Nav items={adminItems} heading="Administration" />
        </nav>
        <main className="min-w-0 flex-1 px-8 py-8">{children}</main>
      </div>
    </div>
  );
}
