import Link from "next/link";

const LINKS = [
  { href: "/constitution", label: "Constitution" },
  { href: "/constitution/history", label: "History" },
  { href: "/constitution/evals", label: "Evals" },
  { href: "/retrieval", label: "Retrieval playground" },
] as const;

export const LINK_CLASS = "text-sm font-medium text-indigo-600 hover:underline";

/** The constitution pages' links to each other, the current page left out. */
export function ConstitutionLinks({ current }: { current: (typeof LINKS)[number]["href"] }) {
  return (
    <div className="flex gap-4 whitespace-nowrap">
      {LINKS.filter((l) => l.href !== current).map((l) => (
        <Link key={l.href} href={l.href} className={LINK_CLASS}>
          {l.label}
        </Link>
      ))}
    </div>
  );
}
