"use client";
import { yaml } from "@codemirror/lang-yaml";
import { lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import CodeMirror, { EditorView, type Text } from "@uiw/react-codemirror";
import { useEffect, useMemo, useState } from "react";
import type { ConstitutionIssue } from "@/lib/constitution/schema";

/** Issues as CodeMirror diagnostics, each underlining from its column to the end of its line. */
function toDiagnostics(doc: Text, issues: readonly ConstitutionIssue[]): Diagnostic[] {
  return issues.map((issue) => {
    const line = doc.line(Math.min(Math.max(issue.line, 1), doc.lines));
    const from = Math.min(line.from + Math.max(issue.column - 1, 0), line.to);
    return {
      from,
      to: Math.max(line.to, from),
      severity: "error",
      message: `${issue.field}: ${issue.reason}`,
      source: "constitution",
    };
  });
}

/** A YAML editor whose gutter and underlines show the given issues (all of one file). */
export function YamlEditor({
  value,
  onChange,
  issues,
  label,
}: {
  value: string;
  onChange: (text: string) => void;
  issues: readonly ConstitutionIssue[];
  label: string;
}) {
  const [view, setView] = useState<EditorView | null>(null);
  const extensions = useMemo(
    () => [
      yaml(),
      lintGutter(),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ "aria-label": label }),
    ],
    [label],
  );

  useEffect(() => {
    if (view) view.dispatch(setDiagnostics(view.state, toDiagnostics(view.state.doc, issues)));
  }, [view, issues]);

  return (
    <div className="overflow-hidden rounded-md border border-slate-300 text-sm">
      <CodeMirror
        value={value}
        onChange={onChange}
        onCreateEditor={setView}
        extensions={extensions}
        height="32rem"
        basicSetup={{ autocompletion: false }}
      />
    </div>
  );
}
