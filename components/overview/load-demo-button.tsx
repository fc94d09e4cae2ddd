"use client";
import { Button, ErrorText } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { loadDemoAction } from "@/lib/actions/load-demo";

/** Imports the shipped demo sessions (the same path as real transcripts), so every page has something to show. */
export function LoadDemoButton() {
  const load = useAction(loadDemoAction);
  return (
    <div className="space-y-2">
      <Button onClick={() => load.mutate({})} disabled={load.isPending}>
        {load.isPending ? "Loading demo data…" : "Load demo data"}
      </Button>
      <p className="text-xs text-slate-500">
        Five sample Claude Code sessions, imported like real transcripts (also:{" "}
        <code>charter demo load</code>).
      </p>
      {load.isError ? <ErrorText>{load.error.message}</ErrorText> : null}
      {load.data ? (
        <p role="status" className="text-sm text-emerald-700">
          Loaded {load.data.sessions} sessions.
        </p>
      ) : null}
    </div>
  );
}
