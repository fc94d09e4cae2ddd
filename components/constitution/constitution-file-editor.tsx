"use client";
import { useId, useMemo, useState, type ReactNode } from "react";
import { Card, ErrorText, cx } from "@/components/ui/primitives";
import type { ConstitutionFile } from "@/lib/constitution/parse";
import type { ConstitutionIssue } from "@/lib/constitution/schema";
import { fileTooLarge } from "@/lib/schemas/constitution";
import { ConflictPanel, type Conflict } from "./conflict-panel";
import { rawFileHref } from "./file-diffs";
import { ImpactPreview } from "./impact-preview";
import { IssueList } from "./issue-list";
import { mergeIssues } from "./issues";
import type { DraftRead } from "./principle-draft";
import { SaveFilePanel, type SaveFile } from "./save-file-panel";
import { useConstitutionCheck } from "./use-constitution-check";
import { YamlEditor } from "./yaml-editor";

type View = "form" | "yaml";
/** The form's draft and the YAML it was read from: while the draft is untouched, that text is kept as written. */
type FormState<D> = { draft: D; readFrom: { draft: D; text: string } };

/** What a file's form view is given: the draft, the engine's issues in this file, and where edits go. */
export type FileFormProps<D> = {
  draft: D;
  issues: readonly ConstitutionIssue[];
  readOnly: boolean;
  onChange: (draft: D) => void;
};

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

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
  const [form, setForm] = useState<FormState<D> | null>(() => {
    const initial = read(original);
    return initial.ok
      ? { draft: initial.draft, readFrom: { draft: initial.draft, text: original } }
      : null;
  });
  const [view, setView] = useState<View>(form ? "form" : "yaml");
  const [yamlText, setYamlText] = useState(original);
  const [switchError, setSwitchError] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ text: string; issues: ConstitutionIssue[] } | null>(
    null,
  );
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [mergedOn, setMergedOn] = useState<number | null>(null);

  const text = useMemo(() => {
    if (view === "yaml" || !form) return yamlText;
    return form.draft === form.readFrom.draft
      ? form.readFrom.text
      : write(form.draft, form.readFrom);
  }, [view, form, yamlText, write]);

  const check = useConstitutionCheck(files, path, text);
  const issues = mergeIssues(check.issues, refused?.text === text ? refused.issues : []);
  const own = issues.filter((i) => i.file === path);
  const elsewhere = issues.filter((i) => i.file !== path);
  const ownWarnings = check.warnings.filter((w) => w.file === path);
  const tooLarge = fileTooLarge(text);
  const blockedBecause = tooLarge
    ? "The file is too large to save (see above)."
    : check.pending
      ? "Checking…"
      : issues.length > 0
        ? `Fix the ${issues.length === 1 ? "problem" : `${issues.length} problems`} above before saving.`
        : text === base.text
          ? "No changes to save."
          : null;

  /** Puts `next` in the view shown, as if typed there: the form reads it when it can, else the YAML view shows it. */
  const showText = (next: string) => {
    setYamlText(next);
    const asDraft = view === "form" ? read(next) : null;
    if (asDraft?.ok)
      setForm({ draft: asDraft.draft, readFrom: { draft: asDraft.draft, text: next } });
    else setView("yaml");
  };

  const onConflict = async (versionId: number) => {
    setMergedOn(null);
    setConflict({ versionId, loading: true });
    try {
      const response = await fetch(rawFileHref(versionId, path));
      if (response.status === 404)
        setConflict({ versionId, error: `Version ${versionId} no longer has ${path}.` });
      else if (!response.ok)
        setConflict({
          versionId,
          error: `Version ${versionId}'s ${path} could not be fetched (HTTP ${response.status}).`,
        });
      else setConflict({ versionId, theirs: await response.text() });
    } catch {
      setConflict({
        versionId,
        error: `Version ${versionId}'s ${path} could not be fetched: the server did not answer.`,
      });
    }
  };

  const switchTo = (next: View) => {
    setSwitchError(null);
    if (next === view) return;
    if (next === "yaml") {
      setYamlText(text);
      setView("yaml");
      return;
    }
    const fromYaml = read(yamlText);
    if (!fromYaml.ok) {
      setSwitchError(`The form cannot show this YAML: ${fromYaml.reason}. Fix it here first.`);
      return;
    }
    setForm({ draft: fromYaml.draft, readFrom: { draft: fromYaml.draft, text: yamlText } });
    setView("form");
  };

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
              setConflict(null);
              setRefused(null);
              setMergedOn(conflict.versionId);
              showText(merged);
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
      <div
        role="tablist"
        aria-label={`${Noun} views`}
        className="mb-4 flex gap-1 border-b border-slate-200"
      >
        {(["form", "yaml"] as const).map((v) => (
          <button
            key={v}
            type="button"
            role="tab"
            aria-selected={view === v}
            aria-controls={panelId}
            onClick={() => switchTo(v)}
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
      {switchError ? <ErrorText>{switchError}</ErrorText> : null}
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
            onChange: (draft) => setForm({ ...form, draft }),
          })
        ) : canEdit ? (
          <YamlEditor value={yamlText} onChange={setYamlText} issues={own} label={`${Noun} YAML`} />
        ) : (
          <pre
            aria-label={`${Noun} YAML`}
            className="max-h-[32rem] overflow-auto whitespace-pre-wrap rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-xs leading-5 text-slate-800"
          >
            {yamlText}
          </pre>
        )}
        <IssueList
          issues={own}
          path={path}
          title={`${own.length} ${own.length === 1 ? "problem" : "problems"} in ${path}`}
        />
        <IssueList issues={elsewhere} path={path} title="This change breaks other files" />
        <IssueList
          issues={ownWarnings}
          path={path}
          tone="warning"
          title={`${ownWarnings.length} ${ownWarnings.length === 1 ? "warning" : "warnings"} in ${path} (it loads)`}
        />
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
              setConflict(null);
              setMergedOn(null);
            }}
            onRefused={(refusedText, refusedIssues) =>
              setRefused({ text: refusedText, issues: refusedIssues })
            }
            onConflict={(versionId) => void onConflict(versionId)}
          />
        </div>
      ) : null}
    </Card>
  );
}
