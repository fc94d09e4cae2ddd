"use client";
import { Button, Field, Input } from "@/components/ui/primitives";
import type { ConstitutionIssue } from "@/lib/constitution/schema";
import { exactIssueText, issueText } from "./issues";
import { emptyPrinciple, type OverlayDraft, type PrincipleDraft } from "./overlay-draft";
import { OverlaySettingsFields } from "./overlay-settings-fields";
import { OverridesEditor } from "./overrides-editor";
import { PrincipleFields } from "./principle-fields";
import { TextArea } from "./text-area";

/** The form view of an overlay; `issues` are the engine's, for this overlay's file. */
export function OverlayForm({ draft, issues, readOnly, onChange }: { draft: OverlayDraft; issues: readonly ConstitutionIssue[]; readOnly: boolean; onChange: (draft: OverlayDraft) => void }) {
  const setPrinciple = (i: number, p: PrincipleDraft) => onChange({ ...draft, principles: draft.principles.map((q, j) => (j === i ? p : q)) });
  return (
    <div className="space-y-6">
      <fieldset className="space-y-3" disabled={readOnly}>
        <Field label="Description" hint="What requests belong to this domain; end with “NOT for: …” to steer others away." error={issueText(issues, "description") ?? issueText(issues, "domain")}>
          <TextArea rows={5} value={draft.description} onChange={(e) => onChange({ ...draft, description: e.target.value })} />
        </Field>
        <Field label="Keywords" hint="Comma-separated. They drive domain detection." error={issueText(issues, "keywords")}>
          <Input value={draft.keywords} onChange={(e) => onChange({ ...draft, keywords: e.target.value })} />
        </Field>
      </fieldset>
      <OverlaySettingsFields settings={draft.settings} issues={issues} readOnly={readOnly} onChange={(settings) => onChange({ ...draft, settings })} />
      <OverridesEditor rows={draft.overrides} issues={issues} readOnly={readOnly} onChange={(overrides) => onChange({ ...draft, overrides })} />
      <section className="space-y-3" aria-label="Additional principles">
        <h3 className="text-sm font-medium text-slate-700">Additional principles</h3>
        {draft.principles.length === 0 ? <p className="text-sm text-slate-500">This overlay adds no principles.</p> : null}
        {draft.principles.map((p, i) => (
          <PrincipleFields
            key={p.key}
            index={i}
            principle={p}
            issues={issues}
            readOnly={readOnly}
            onChange={(next) => setPrinciple(i, next)}
            onRemove={() => onChange({ ...draft, principles: draft.principles.filter((_, j) => j !== i) })}
          />
        ))}
        {exactIssueText(issues, "additional_principles") ? (
          <span role="alert" className="block text-xs text-red-600">
            {exactIssueText(issues, "additional_principles")}
          </span>
        ) : null}
        {readOnly ? null : (
          <Button variant="secondary" onClick={() => onChange({ ...draft, principles: [...draft.principles, emptyPrinciple()] })}>
            Add principle
          </Button>
        )}
      </section>
    </div>
  );
}
