"use client";
import { useId, useState, type ReactNode } from "react";
import { Card, ErrorText, cx } from "@/components/ui/primitives";
import type { ConstitutionFile } from "@/lib/constitution/parse";
import type { ConstitutionIssue } from "@/lib/constitution/schema";
import { fileTooLarge } from "@/lib/schemas/constitution";
import { ConflictPanel } from "./conflict-panel";
import { ImpactPreview } from "./impact-preview";
import { IssueList } from "./issue-list";
import { mergeIssues } from "./issues";
import type { DraftRead } from "./principle-draft";
import { SaveFilePanel, type SaveFile } from "./save-file-panel";
import { useConflict } from "./use-conflict";
import { useConstitutionCheck } from "./use-constitution-check";
import { useFileDraft, type View } from "./use-file-draft";
import { YamlEditor } from "./yaml-editor";

/** What a file's form view is given: the draft, the engine's issues in this file, and where edits go. */
export type FileFormProps<D> = {
  draft: D;
  issues: readonly ConstitutionIssue[];
  readOnly: boolean;
  onChange: (draft: D) => void;
};

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Why Save is disabled, or null when it may be pressed. */
function blockedReason(state: {
  tooLarge: string | null;
  pending: boolean;
  problems: number;
  unchanged: boolean;
}): string | null {
  if (state.tooLarge) return "The file is too large to save (see above).";
  if (state.pending) return "Checking…";
  if (state.problems > 0)
    return `Fix the ${state.problems === 1 ? "problem" : `${state.problems} problems`} above before saving.`;
  return state.unchanged ? "No changes to save." : null;
}

/** The engine's findings on the draft: this file's problems, what it breaks elsewhere, its warnings. */
function FileIssues({
  path,
  own,
  elsewhere,
  warnings,
}: {
  path: string;
  own: ConstitutionIssue[];
  elsewhere: ConstitutionIssue[];
  warnings: ConstitutionIssue[];
}) {
  return (
    <>
      <IssueList
        issues={own}
        path={path}
        title={`${own.length} ${own.length === 1 ? "problem" : "problems"} in ${path}`}
      />
      <IssueList issues={elsewhere} path={path} title="This change breaks other files" />
      <IssueList
        issues={warnings}
        path={path}
        tone="warning"
        title={`${warnings.length} ${warnings.length === 1 ? "warning" : "warnings"} in ${path} (it loads)`}
      />
    </>
  );
}

/** The Form / YAML tabs. */
function ViewTabs({
  label,
  view,
  controls,
  onSelect,
}: {
  label: string;
  view: View;
  controls: string;
  onSelect: (view: View) => void;
}) {
  return (
    <div role="tablist" aria-label={label} className="mb-4 flex gap-1 border-b border-slate-200">
      {(["form", "yaml"] as const).map((v) => (
        <button
          key={v}
          type="button"
          role="tab"
          aria-selected={view === v}
          aria-controls={controls}
          onClick={() => onSelect(v)}
          className={cx(
            "-mb-px border-b-2 px-3 py-1.5 text-sm font-medium",
            view === v
              ? "border-indigo-600 text-indigo-700"
              : "border-transparent text-slate-600 hover:text-slate-900",
          )}
        >
          {v === "form" ? "Form" : "YAML"}
        </button>
      ))}
    </div>
  );
}

/**
 * Edits one constitution file in a form view or a YAML view; edits carry across when
 * switching. The whole constitution is validated as you type, and Save sends the YAML
 * on top of the version the page was loaded with. What is file-specific comes in as
 * props: how the file reads into a draft (`read`), how a draft is written (`write`),
 * the form (`renderForm`) and the server action that saves it (`save`). Above Save, the
 * impact preview shows what the change would do to the eval set and recent prompts.
 * Should another version be saved meanwhile, the conflict panel shows that change and can
 * re-apply the draft on top of it. Without `canEdit` (a viewer) the file is shown as text:
 * no inputs and no Save.
 */
export function ConstitutionFileEditor<D>({
  noun,
  path,
  original,
  files,
  baseVersionId,
  canEdit,
  read,
  write,
  renderForm,
  save,
  reloadHref,
}: {
  /** What the file is, in lower case ("overlay", "core file"): names the views, the YAML editor and the save form. */
  noun: string;
  /** Where the file is saved (`core.yaml`, `overlays/<domain>.yaml`); `original` is its text in the base version. */
  path: string;
  original: string;
  /** Every file of the base version, to validate the whole constitution with this one replaced. */
  files: ConstitutionFile[];
  baseVersionId: number;
  canEdit: boolean;
  read: (text: string) => DraftRead<D>;
  /** The YAML for a changed draft; `readFrom` is the draft's origin, for writers that keep the rest of the text as written. */
  write: (draft: D, readFrom: { draft: D; text: string }) => string;
  renderForm: (props: FileFormProps<D>) => ReactNode;
  save: SaveFile;
  /** Where "Reload" leads after a conflict: this editor's page. */
  reloadHref: string;
}) {
  const panelId = useId();
  const [base, setBase] = useState({ id: baseVersionId, text: original });
  const draft = useFileDraft(original, read, write);
  const { view, form, yamlText, text } = draft;
  const [refused, setRefused] = useState<{ text: string; issues: ConstitutionIssue[] } | null>(
    null,
  );
  const conflicts = useConflict(path);
  const { conflict, mergedOn } = conflicts;

  const check = useConstitutionCheck(files, path, text);
  const issues = mergeIssues(check.issues, refused?.text === text ? refused.issues : []);
  const own = issues.filter((i) => i.file === path);
  const elsewhere = issues.filter((i) => i.file !== path);
  const ownWarnings = check.warnings.filter((w) => w.file === path);
  const tooLarge = fileTooLarge(text);
  const blockedBecause = blockedReason({
    tooLarge,
    pending: check.pending,
    problems: issues.length,
    unchanged: text === base.text,
  });

  const Noun = capitalize(noun);
  return (
    <Card>
      {canEdit ? null : (
        <p
          role="note"
          className="mb-4 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700"
        >
          <span className="font-medium text-slate-900">Read only.</span> You can read this {noun};
          changing it needs the editor role.
        </p>
      )}
      {canEdit && conflict ? (
        <div className="mb-4">
          <ConflictPanel
            path={path}
            conflict={conflict}
            base={base.text}
            mine={text}
            reloadHref={reloadHref}
            onMerged={(merged, theirs) => {
              setBase({ id: conflict.versionId, text: theirs });
              setRefused(null);
              conflicts.merged(conflict.versionId);
              draft.showText(merged);
            }}
          />
        </div>
      ) : null}
      {canEdit && mergedOn !== null ? (
        <p
          role="status"
          className="mb-4 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800"
        >
          Your draft was re-applied on top of version {mergedOn}. Nothing is saved yet: review the
          result, then Save.
        </p>
      ) : null}
      <ViewTabs label={`${Noun} views`} view={view} controls={panelId} onSelect={draft.switchTo} />
      {draft.switchError ? <ErrorText>{draft.switchError}</ErrorText> : null}
      <div
        id={panelId}
        role="tabpanel"
        aria-label={view === "form" ? "Form" : "YAML"}
        className="space-y-4"
      >
        {tooLarge ? <ErrorText>{tooLarge} Shorten it before saving.</ErrorText> : null}
        {view === "form" && form ? (
          renderForm({
            draft: form.draft,
            issues: own,
            readOnly: !canEdit,
            onChange: draft.setDraft,
          })
        ) : canEdit ? (
          <YamlEditor
            value={yamlText}
            onChange={draft.setYamlText}
            issues={own}
            label={`${Noun} YAML`}
          />
        ) : (
          <pre
            aria-label={`${Noun} YAML`}
            className="max-h-[32rem] overflow-auto whitespace-pre-wrap rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-xs leading-5 text-slate-800"
          >
            {yamlText}
          </pre>
        )}
        <FileIssues path={path} own={own} elsewhere={elsewhere} warnings={ownWarnings} />
      </div>
      {canEdit ? (
        <div className="mt-6 border-t border-slate-100 pt-4">
          <SaveFilePanel
            noun={noun}
            text={text}
            baseVersionId={base.id}
            blockedBecause={blockedBecause}
            save={save}
            reloadHref={reloadHref}
            preview={
              // A preview belongs to its base: after a save (or a merge onto a newer version) it is gone, not "stale".
              <ImpactPreview
                key={base.id}
                path={path}
                text={text}
                baseVersionId={base.id}
                canPreview={canEdit}
              />
            }
            onSaved={(id, saved) => {
              setBase({ id, text: saved });
              conflicts.clear();
            }}
            onRefused={(refusedText, refusedIssues) =>
              setRefused({ text: refusedText, issues: refusedIssues })
            }
            onConflict={(versionId) => void conflicts.onConflict(versionId)}
          />
        </div>
      ) : null}
    </Card>
  );
}
