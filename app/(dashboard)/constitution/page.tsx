import type { Metadata } from "next";
import { PlannedPage } from "@/components/shell/planned-page";

export const metadata: Metadata = { title: "Constitution" };

export default function Page() {
  return (
    <PlannedPage
      title="Constitution"
      summary="The principles your agents follow: core hard constraints and soft norms, plus domain overlays."
      docs="constitution"
      will={[
        "Core principles and the 20 domain overlays in tables, filtered by level, domain and text.",
        "An overlay editor with a form view and a YAML view, validated as you type.",
        "Every saved version with a diff between any two, and rollback for approvers.",
      ]}
    />
  );
}
