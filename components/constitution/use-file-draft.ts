"use client";
import { useMemo, useState } from "react";
import type { DraftRead } from "./principle-draft";

export type View = "form" | "yaml";
/** The form's draft and the YAML it was read from: while the draft is untouched, that text is kept as written. */
type FormState<D> = { draft: D; readFrom: { draft: D; text: string } };

/**
 * A constitution file's draft in its two views: the form's draft (when the text reads
 * into one) and the YAML text. `text` is what would be saved: the YAML view's text, or
 * the form's draft written (its original text while it is untouched). Switching to the
 * form reads the YAML, and says why when it cannot.
 */
export function useFileDraft<D>(
  original: string,
  read: (text: string) => DraftRead<D>,
  write: (draft: D, readFrom: { draft: D; text: string }) => string,
) {
  const [form, setForm] = useState<FormState<D> | null>(() => {
    const initial = read(original);
    return initial.ok
      ? { draft: initial.draft, readFrom: { draft: initial.draft, text: original } }
      : null;
  });
  const [view, setView] = useState<View>(form ? "form" : "yaml");
  const [yamlText, setYamlText] = useState(original);
  const [switchError, setSwitchError] = useState<string | null>(null);

  const text = useMemo(() => {
    if (view === "yaml" || !form) return yamlText;
    return form.draft === form.readFrom.draft
      ? form.readFrom.text
      : write(form.draft, form.readFrom);
  }, [view, form, yamlText, write]);

  /** Puts `next` in the view shown, as if typed there: the form reads it when it can, else the YAML view shows it. */
  const showText = (next: string) => {
    setYamlText(next);
    const asDraft = view === "form" ? read(next) : null;
    if (asDraft?.ok)
      setForm({ draft: asDraft.draft, readFrom: { draft: asDraft.draft, text: next } });
    else setView("yaml");
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

  const setDraft = (draft: D) => setForm((current) => (current ? { ...current, draft } : current));

  return { view, form, yamlText, setYamlText, text, switchError, showText, switchTo, setDraft };
}
