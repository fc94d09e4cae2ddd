"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "@/components/ui/primitives";
import type { NavItem } from "./nav-items";

export function Nav({ items, heading }: { items: NavItem[]; heading?: string }) {
  const pathname = usePathname();
  if (items.length === 0) return null;
  return (
    <div className="mb-6">
      {heading ? (
        <p className="mb-1 px-3 text-xs font-semibold uppercase tracking-wide text-slate-400">
          {heading}
        </p>
      ) : null}
      <ul className="space-y-0.5">
        {items.map((item) => {
          const active =
            item.href === "/"
              ? pathname === "/"
              : pathname === item.href || pathname.startsWith(`${item.href}/`);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={active ? "page" : undefined}
                className={cx(
                  "block rounded-md px-3 py-1.5 text-sm",
                  active
                    ? "bg-indigo-50 font-medium text-indigo-700"
                    : "text-slate-700 hover:bg-slate-100",
                )}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
