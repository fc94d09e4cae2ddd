"use client";
import { Button, Input } from "@/components/ui/primitives";
import { PRIORITY_MAX, PRIORITY_MIN, type ConstitutionIssue } from "@/lib/constitution/schema";
import { exactIssueText } from "./issues";
import type { OverrideDraft } from "./overlay-draft";
import { rowKey } from "./principle-draft";

/** Priority overrides as id/priority rows; an issue at `priority_overrides.<id>` shows under its row. */
export function OverridesEditor({
  rows,
  issues,
  onChange,
}: {
  rows: OverrideDraft[];
  issues: readonly ConstitutionIssue[];
  onChange: (rows: OverrideDraft[]) => void;
}) {
  const update = (i: number, patch: Partial<OverrideDraft>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const general = exactIssueText(issues, "priority_overrides");
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-700">Priority overrides</legend>
      <p className="text-xs text-slate-500">
        While this overlay is active, these principles take the priority given here.
      </p>
      {rows.length === 0 ? <p className="text-sm text-slate-500">No overrides.</p> : null}
      {rows.map((row, i) => {
        const error = exactIssueText(issues, `priority_overrides.${row.id.trim()}`);
        return (
          <div key={row.key} className="space-y-1">
            <div className="flex items-center gap-2">
              <Input
                aria-label={`Override ${i + 1} principle id`}
                placeholder="Principle id"
                value={row.id}
                onChange={(e) => update(i, { id: e.target.value })}
                className="font-mono"
              />
              <Input
                aria-label={`Override ${i + 1} priority`}
                type="number"
                min={PRIORITY_MIN}
                max={PRIORITY_MAX}
                value={row.priority}
                onChange={(e) => update(i, { priority: e.target.value })}
                className="w-28"
              />
              <Button
                variant="ghost"
                aria-label={`Remove override ${i + 1}`}
                onClick={() => onChange(rows.filter((_, j) => j !== i))}
              >
                Remove
              </Button>
            </div>
            {error ? (
              <span role="alert" className="block text-xs text-red-600">
                {error}
              </span>
            ) : null}
          </div>
        );
      })}
      {general ? (
        <span role="alert" className="block text-xs text-red-600">
          {general}
        </span>
      ) : null}
      <Button
        variant="secondary"
        onClick={() => onChange([...rows, { key: rowKey(), id: "", priority: "50" }])}
      >
        Add override
      </Button>
    </fieldset>
  );
}
