"use client";
import { useMemo, useState } from "react";
import { Card, ErrorText, cx } from "@/components/ui/primitives";
import type { ConstitutionFile } from "@/lib/constitution/parse";
import type { ConstitutionIssue } from "@/lib/constitution/schema";
import { IssueList } from "./issue-list";
import { mergeIssues } from "./issues";
import { draftFromYaml, draftToYaml, type OverlayDraft } from "./overlay-draft";
import { OverlayForm } from "./overlay-form";
import { SaveOverlayPanel } from "./save-overlay-panel";
import { useConstitutionCheck } from "./use-constitution-check";
import { YamlEditor } from "./yaml-editor";

type View = "form" | "yaml";
/** The form's draft and the YAML it was read from: while the draft is untouched, that text is kept as written. */
type FormState = { draft: OverlayDraft; readFrom: { draft: OverlayDraft; text: string } };

function formState(text: string, domain: string): FormState | null {
  const read = draftFromYaml(text, domain);
  return read.ok ? { draft: read.draft, readFrom: { draft: read.draft, text } } : null;
}

/**
 * Edits one overlay in a form view or a YAML view; edits carry across when switching.
 * The whole constitution is validated as you type, and Save sends the YAML on top of
 * the version the page was loaded with.
 */
export function OverlayEditor({
  domain,
  path,
  original,
  files,
  baseVersionId,
  canEdit,
}: {
  domain: string;
  /** Where the overlay is saved (`overlays/<domain>.yaml`); `original` is its text in the base version. */
  path: string;
  original: string;
  files: ConstitutionFile[];
  baseVersionId: number;
  canEdit: boolean;
}) {
  const [base, setBase] = useState({ id: baseVersionId, text: original });
  const [form, setForm] = useState<FormState | null>(() => formState(original, domain));
  const [view, setView] = useState<View>(form ? "form" : "yaml");
  const [yamlText, setYamlText] = useState(original);
  const [switchError, setSwitchError] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ text: string; issues: ConstitutionIssue[] } | null>(null);

  const text = useMemo(() => {
    if (view === "yaml" || !form) return yamlText;
    return form.draft === form.readFrom.draft ? form.readFrom.text : draftToYaml(domain, form.draft);
  }, [view, form, yamlText, domain]);

  const check = useConstitutionCheck(files, path, text);
  const issues = mergeIssues(check.issues, refused?.text === text ? refused.issues : []);
  const own = issues.filter((i) => i.file === path);
  const elsewhere = issues.filter((i) => i.file !== path);
  const blockedBecause = check.pending
    ? "Checking…"
    : issues.length > 0
      ? `Fix the ${issues.length === 1 ? "problem" : `${issues.length} problems`} above before saving.`
      : text === base.text
        ? "No changes to save."
        : null;

  const switchTo = (next: View) => {
    setSwitchError(null);
    if (next === view) return;
    if (next === "yaml") {
      setYamlText(text);
      setView("yaml");
      return;
    }
    const read = draftFromYaml(yamlText, domain);
    if (!read.ok) {
      setSwitchError(`The form cannot show this YAML: ${read.reason}. Fix it here first.`);
      return;
    }
    setForm({ draft: read.draft, readFrom: { draft: read.draft, text: yamlText } });
    setView("form");
  };

  return (
    <Card>
      <div role="tablist" aria-label="Overlay views" className="mb-4 flex gap-1 border-b border-slate-200">
        {(["form", "yaml"] as const).map((v) => (
          <button
            key={v}
            type="button"
            role="tab"
            aria-selected={view === v}
            aria-controls="overlay-view"
            onClick={() => switchTo(v)}
            className={cx("-mb-px border-b-2 px-3 py-1.5 text-sm font-medium", view === v ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900")}
          >
            {v === "form" ? "Form" : "YAML"}
          </button>
        ))}
      </div>
      {switchError ? <ErrorText>{switchError}</ErrorText> : null}
      <div id="overlay-view" role="tabpanel" aria-label={view === "form" ? "Form" : "YAML"} className="space-y-4">
        {view === "form" && form ? (
          <OverlayForm draft={form.draft} issues={own} readOnly={!canEdit} onChange={(draft) => setForm({ ...form, draft })} />
        ) : (
          <YamlEditor value={yamlText} onChange={setYamlText} issues={own} readOnly={!canEdit} label="Overlay YAML" />
        )}
        <IssueList issues={own} path={path} title={`${own.length} ${own.length === 1 ? "problem" : "problems"} in ${path}`} />
        <IssueList issues={elsewhere} path={path} title="This change breaks other files" />
      </div>
      {canEdit ? (
        <div className="mt-6 border-t border-slate-100 pt-4">
          <SaveOverlayPanel
            domain={domain}
            text={text}
            baseVersionId={base.id}
            blockedBecause={blockedBecause}
            onSaved={(id, saved) => setBase({ id, text: saved })}
            onRefused={(refusedText, refusedIssues) => setRefused({ text: refusedText, issues: refusedIssues })}
          />
        </div>
      ) : (
        <p className="mt-4 text-sm text-slate-600">You can read this overlay; editing needs the editor role.</p>
      )}
    </Card>
  );
}
