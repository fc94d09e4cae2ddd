"use client";
import { useEffect, useMemo, useState } from "react";
import { parseConstitution, type ConstitutionFile } from "@/lib/constitution/parse";
import type { ConstitutionIssue } from "@/lib/constitution/schema";

const PAUSE_MS = 200;

/**
 * Validates the whole constitution with one file replaced, in the browser, with the
 * engine the server uses: a change here can break another file (a duplicate id is
 * reported at its second definition), so every file is checked, not just this one.
 * Runs once typing pauses; `pending` is true until the latest text has been checked.
 * `warnings` are what loads but is dubious (a priority written as text, say).
 */
export function useConstitutionCheck(
  files: readonly ConstitutionFile[],
  path: string,
  text: string,
): { pending: boolean; issues: ConstitutionIssue[]; warnings: ConstitutionIssue[] } {
  const [checked, setChecked] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setChecked(text), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const { issues, warnings } = useMemo(() => {
    const others = files.filter(
      (f) => f.path !== path && f.path !== path.replace(/\.yaml$/, ".yml"),
    );
    const result = parseConstitution([...others, { path, text: checked }]);
    return { issues: result.ok ? [] : result.issues, warnings: result.warnings ?? [] };
  }, [files, path, checked]);
  return { pending: checked !== text, issues, warnings };
}
