"use client";
import { Field } from "@/components/ui/primitives";
import type { ConstitutionIssue } from "@/lib/constitution/schema";
import type { CoreDraft } from "./core-draft";
import { issueText } from "./issues";
import { PrincipleList } from "./principle-list";
import { CoreView } from "./read-only-views";
import { TextArea } from "@/components/ui/text-area";

/** The form view of `core.yaml` (as text when read-only); `issues` are the engine's, for that file. */
export function CoreForm({
  draft,
  issues,
  readOnly,
  onChange,
}: {
  draft: CoreDraft;
  issues: readonly ConstitutionIssue[];
  readOnly: boolean;
  onChange: (draft: CoreDraft) => void;
}) {
  if (readOnly) return <CoreView draft={draft} />;
  return (
    <div className="space-y-6">
      <fieldset className="space-y-3">
        <Field
          label="Description"
          hint="Optional: what the core principles are for. Core principles apply to every request."
          error={issueText(issues, "description")}
        >
          <TextArea
            rows={3}
            value={draft.description}
            onChange={(e) => onChange({ ...draft, description: e.target.value })}
          />
        </Field>
      </fieldset>
      <PrincipleList
        title="Core principles"
        listField="principles"
        empty="No principles: a constitution needs at least one core principle."
        principles={draft.principles}
        issues={issues}
        onChange={(principles) => onChange({ ...draft, principles })}
      />
    </div>
  );
}
