import { Time } from "@/components/ui/time";

/** One line naming a version: number, message, author and time. */
export function VersionSummary({
  version,
}: {
  version: { id: number; message: string; authorLabel: string; createdAt: Date };
}) {
  return (
    <p className="text-sm text-slate-600" data-testid="version-summary">
      <span className="font-medium text-slate-900">Version {version.id}</span> · {version.message} ·
      by {version.authorLabel} · <Time value={version.createdAt} />
    </p>
  );
}
