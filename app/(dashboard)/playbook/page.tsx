import type { Metadata } from "next";
import { PlannedPage } from "@/components/shell/planned-page";

export const metadata: Metadata = { title: "Playbook" };

export default function Page() {
  return (
    <PlannedPage
      title="Playbook"
      summary="Learned key points with helpful and harmful counts, and the prune queue."
      docs="playbook"
      will={[
        "Key points with their counts and trust ratio; search, add and edit.",
        "The prune queue: entries that met the prune rule, with their evidence, for an approver to decide.",
      ]}
    />
  );
}
