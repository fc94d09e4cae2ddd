import { Badge } from "@/components/ui/primitives";

/** Hard constraints in red, soft norms in amber. */
export function LevelBadge({ level }: { level: string }) {
  return <Badge tone={level === "hard" ? "red" : "amber"}>{level}</Badge>;
}
