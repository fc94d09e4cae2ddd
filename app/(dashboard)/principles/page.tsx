import type { Metadata } from "next";
import { PlannedPage } from "@/components/shell/planned-page";

export const metadata: Metadata = { title: "Principles" };

export default function Page() {
  return (
    <PlannedPage
      title="Principles"
      summary="How much each principle can be trusted, from the sessions it took part in."
      docs="principles"
      will={[
        "Every principle with its use count, success count, raw and smoothed trust.",
        "Trust over time and the sessions where a principle was injected.",
      ]}
    />
  );
}
