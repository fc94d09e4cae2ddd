import Link from "next/link";
import { plural } from "@/components/ui/format";

/** The way to the prune queue, with how many proposals wait there. */
export function PruneQueueLink({ count }: { count: number }) {
  return (
    <Link
      href="/playbook/prune"
      data-testid="prune-queue-link"
      data-count={count}
      className={`inline-flex items-center gap-2 whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset hover:underline ${count > 0 ? "bg-amber-50 text-amber-900 ring-amber-200" : "text-indigo-600 ring-slate-200"}`}
    >
      Prune queue: {plural(count, "proposal")}
    </Link>
  );
}
