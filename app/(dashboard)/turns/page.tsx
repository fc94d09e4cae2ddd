import type { Metadata } from "next";
import { PlannedPage } from "@/components/shell/planned-page";

export const metadata: Metadata = { title: "Turns" };

export default function Page() {
  return (
    <PlannedPage
      title="Turns"
      summary="Every agent turn, scored against the seven constitutional principles."
      docs="turns"
      will={[
        "A live table of scored turns with filters by session, time, total and principle.",
        "Each turn's seven scores, weights, totals and the reasoning behind them.",
        "A reviewer's override of one principle's score, kept beside the engine's score.",
      ]}
    />
  );
}
