"use client";
import { Field, Input } from "@/components/ui/primitives";
import type { ConstitutionIssue } from "@/lib/constitution/schema";
import { issueText } from "./issues";
import type { OverlayDraft } from "./overlay-draft";
import { OverlaySettingsFields } from "./overlay-settings-fields";
import { OverridesEditor } from "./overrides-editor";
import { PrincipleList } from "./principle-list";
import { OverlayView } from "./read-only-views";
import { TextArea } from "@/components/ui/text-area";

/** The form view of an overlay (as text when read-only); `issues` are the engine's, for this overlay's file. */
export function OverlayForm({
  draft,
  issues,
  readOnly,
  onChange,
}: {
  draft: OverlayDraft;
  issues: readonly ConstitutionIssue[];
  readOnly: boolean;
  onChange: (draft: OverlayDraft) => void;
}) {
  if (readOnly) return <OverlayView draft={draft} />;
  return (
    <div className="space-y-6">
      <fieldset className="space-y-3">
        <Field
          label="Description"
          hint="What requests belong to this domain; end with “NOT for: …” to steer others away."
          error={issueText(issues, "description") ?? issueText(issues, "domain")}
        >
          <TextArea
            rows={5}
            value={draft.description}
            onChange={(e) => onChange({ ...draft, description: e.target.value })}
          />
        </Field>
        <Field
          label="Keywords"
          hint="Comma-separated. They drive domain detection."
          error={issueText(issues, "keywords")}
        >
          <Input
            value={draft.keywords}
            onChange={(e) => onChange({ ...draft, keywords: e.target.value })}
          />
        </Field>
      </fieldset>
      <OverlaySettingsFields
        settings={draft.settings}
        issues={issues}
        onChange={(settings) => onChange({ ...draft, settings })}
      />
      <OverridesEditor
        rows={draft.overrides}
        issues={issues}
        onChange={(overrides) => onChange({ ...draft, overrides })}
      />
      <PrincipleList
        title="Additional principles"
        listField="additional_principles"
        empty="This overlay adds no principles."
        principles={draft.principles}
        issues={issues}
        onChange={(principles) => onChange({ ...draft, principles })}
      />
    </div>
  );
}
