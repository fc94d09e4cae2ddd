import type { Metadata } from "next";
import { PlannedPage } from "@/components/shell/planned-page";

export const metadata: Metadata = { title: "Sessions" };

export default function Page() {
  return (
    <PlannedPage
      title="Sessions"
      summary="Agent sessions and how they went, from the signals they left."
      docs="sessions"
      will={[
        "Sessions with their outcome status and score.",
        "A timeline of prompts with the feedback each one carried, and the tool calls with their success.",
        "The credit each injected principle earned, with its reasoning.",
      ]}
    />
  );
}
