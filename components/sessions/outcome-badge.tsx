import { Badge } from "@/components/ui/primitives";

const TONES = { success: "green", partial: "amber", failure: "red" } as const;

/** A session's outcome status; "open" until the session is credited at SessionEnd. */
export function OutcomeBadge({ status }: { status: string | null }) {
  if (status === null) return <Badge>open</Badge>;
  return <Badge tone={TONES[status as keyof typeof TONES] ?? "slate"}>{status}</Badge>;
}
