import type { Role } from "@/lib/auth/roles";

export type NavItem = { href: string; label: string; role: Role };

/** The dashboard's sections, in the order of the sidebar; `role` is the least role that sees the link. */
export const NAV_ITEMS: NavItem[] = [
  { href: "/", label: "Overview", role: "viewer" },
  { href: "/constitution", label: "Constitution", role: "viewer" },
  { href: "/turns", label: "Turns", role: "viewer" },
  { href: "/sessions", label: "Sessions", role: "viewer" },
  { href: "/principles", label: "Principles", role: "viewer" },
  { href: "/playbook", label: "Playbook", role: "viewer" },
  { href: "/retrieval", label: "Retrieval", role: "viewer" },
  { href: "/api-docs", label: "API", role: "viewer" },
  { href: "/docs", label: "Docs", role: "viewer" },
];

export const ADMIN_ITEMS: NavItem[] = [
  { href: "/users", label: "Users", role: "admin" },
  { href: "/api-keys", label: "API keys", role: "admin" },
  { href: "/weights", label: "Weights", role: "admin" },
  { href: "/audit", label: "Audit log", role: "approver" },
];
