"use client";
import { Button } from "@/components/ui/primitives";
import type { ConstitutionIssue } from "@/lib/constitution/schema";
import { exactIssueText } from "./issues";
import { emptyPrinciple, type PrincipleDraft } from "./principle-draft";
import { PrincipleFields } from "./principle-fields";

/** A file's list of principles (`listField` in its YAML), each editable, with Add and Remove. */
export function PrincipleList({
  title,
  listField,
  empty,
  principles,
  issues,
  onChange,
}: {
  title: string;
  listField: string;
  /** Shown when the list is empty. */
  empty: string;
  principles: PrincipleDraft[];
  issues: readonly ConstitutionIssue[];
  onChange: (principles: PrincipleDraft[]) => void;
}) {
  const listError = exactIssueText(issues, listField);
  return (
    <section className="space-y-3" aria-label={title}>
      <h3 className="text-sm font-medium text-slate-700">{title}</h3>
      {principles.length === 0 ? <p className="text-sm text-slate-500">{empty}</p> : null}
      {principles.map((p, i) => (
        <PrincipleFields
          key={p.key}
          listField={listField}
          index={i}
          principle={p}
          issues={issues}
          onChange={(next) => onChange(principles.map((q, j) => (j === i ? next : q)))}
          onRemove={() => onChange(principles.filter((_, j) => j !== i))}
        />
      ))}
      {listError ? (
        <span role="alert" className="block text-xs text-red-600">
          {listError}
        </span>
      ) : null}
      <Button variant="secondary" onClick={() => onChange([...principles, emptyPrinciple()])}>
        Add principle
      </Button>
    </section>
  );
}
