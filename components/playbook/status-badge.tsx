import { Badge } from "@/components/ui/primitives";

const tones = { active: "green", proposed: "amber", pruned: "slate" } as const;

/** A key point's status: active (given to agents), proposed (waiting for an approver) or pruned. */
export function StatusBadge({ status }: { status: string }) {
  const tone = status in tones ? tones[status as keyof typeof tones] : "slate";
  return <Badge tone={tone}>{status === "proposed" ? "proposed for pruning" : status}</Badge>;
}
