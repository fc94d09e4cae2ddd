import type { Metadata } from "next";
import { PlannedPage } from "@/components/shell/planned-page";

export const metadata: Metadata = { title: "Retrieval" };

export default function Page() {
  return (
    <PlannedPage
      title="Retrieval"
      summary="Try a prompt and see which domains and principles Charter would inject."
      docs="retrieval"
      will={[
        "Detected domains with their confidences.",
        "Retrieved principles in conflict order, and the debug info of the retrieval.",
      ]}
    />
  );
}
