import { Badge } from "@/components/ui/primitives";
import type { SessionOrigin } from "./session-facts";

const TONES: Record<SessionOrigin, "indigo" | "slate" | "amber" | "green"> = {
  hook: "indigo",
  import: "slate",
  api: "amber",
  dashboard: "green",
  otel: "slate",
};
const TITLES: Record<SessionOrigin, string> = {
  hook: "Reported live by Charter's hook",
  import: "Imported from an agent's transcript",
  api: "Posted to the REST API by a client other than the hook",
  dashboard: "Posted from a signed-in dashboard session",
  otel: "Exported as OpenTelemetry GenAI spans",
};

/** Where a session's events came from, as a badge with the explanation on hover. */
export function SessionSource({ origin }: { origin: SessionOrigin }) {
  return (
    <span title={TITLES[origin]} data-testid="session-source">
      <Badge tone={TONES[origin]}>{origin}</Badge>
    </span>
  );
}

/** A session's project: the folder name, the full path on hover. */
export function ProjectName({ project }: { project: { name: string; path: string } | null }) {
  if (!project) return <span className="text-slate-400">—</span>;
  return (
    <span
      title={project.path}
      className="font-mono text-xs text-slate-800"
      data-testid="session-project"
    >
      {project.name}
    </span>
  );
}
