"use client";
import { Button, Field, Input, Options, Select } from "@/components/ui/primitives";
import {
  LEVELS,
  PRIORITY_MAX,
  PRIORITY_MIN,
  type ConstitutionIssue,
} from "@/lib/constitution/schema";
import { issueText } from "./issues";
import type { PrincipleDraft } from "./principle-draft";
import { TextArea } from "@/components/ui/text-area";

/** Tall enough to show every example line, up to a limit. */
const rowsFor = (text: string) => Math.min(Math.max(text.split("\n").length + 1, 3), 10);

/**
 * One principle of a file's list (`listField`: an overlay's `additional_principles`, core's
 * `principles`); errors come from the engine's issues at `<listField>[index]`.
 */
export function PrincipleFields({
  listField,
  index,
  principle,
  issues,
  onChange,
  onRemove,
}: {
  listField: string;
  index: number;
  principle: PrincipleDraft;
  issues: readonly ConstitutionIssue[];
  onChange: (p: PrincipleDraft) => void;
  onRemove: () => void;
}) {
  const at = `${listField}[${index}]`;
  const core = listField === "principles";
  const error = (field: string) => issueText(issues, `${at}.${field}`);
  const set = (field: keyof PrincipleDraft) => (e: { target: { value: string } }) =>
    onChange({ ...principle, [field]: e.target.value });
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-800">
        Principle {index + 1}{" "}
        {principle.id ? (
          <span className="ml-2 font-mono text-xs font-normal text-slate-500">{principle.id}</span>
        ) : null}
      </legend>
      <div className="grid gap-3 md:grid-cols-[1fr_8rem_8rem]">
        <Field label="Id" error={error("id")}>
          <Input value={principle.id} onChange={set("id")} className="font-mono" />
        </Field>
        <Field label="Level" error={error("level")}>
          <Select value={principle.level} onChange={set("level")} className="w-full">
            {(LEVELS as readonly string[]).includes(principle.level) ? null : (
              <option value={principle.level}>{principle.level || "(none)"}</option>
            )}
            <Options values={LEVELS} />
          </Select>
        </Field>
        <Field label="Priority" error={error("priority")}>
          <Input
            type="number"
            min={PRIORITY_MIN}
            max={PRIORITY_MAX}
            value={principle.priority}
            onChange={set("priority")}
          />
        </Field>
      </div>
      <Field label="Title" error={error("title")}>
        <Input value={principle.title} onChange={set("title")} />
      </Field>
      <Field label="Rule" error={error("rule")}>
        <TextArea rows={3} value={principle.rule} onChange={set("rule")} />
      </Field>
      <div className="grid gap-3 md:grid-cols-2">
        <Field label="Examples to allow" hint="One per line." error={error("examples_allow")}>
          <TextArea
            rows={rowsFor(principle.examplesAllow)}
            value={principle.examplesAllow}
            onChange={set("examplesAllow")}
          />
        </Field>
        <Field label="Examples to deny" hint="One per line." error={error("examples_deny")}>
          <TextArea
            rows={rowsFor(principle.examplesDeny)}
            value={principle.examplesDeny}
            onChange={set("examplesDeny")}
          />
        </Field>
      </div>
      <Field label="Remediation" error={error("remediation")}>
        <TextArea rows={2} value={principle.remediation} onChange={set("remediation")} />
      </Field>
      <Field
        label="Principle keywords"
        hint="Comma-separated."
        error={error("keywords") ?? (core ? undefined : error("domain"))}
      >
        <Input value={principle.keywords} onChange={set("keywords")} />
      </Field>
      {core ? (
        <Field
          label="Domain label"
          hint="Optional. A core principle is always in force; a label (moralstack writes core) only ranks it as more specific when priorities tie."
          error={error("domain")}
        >
          <Input value={principle.domain} onChange={set("domain")} className="font-mono" />
        </Field>
      ) : null}
      <Button variant="danger" onClick={onRemove}>
        Remove principle {index + 1}
      </Button>
    </fieldset>
  );
}
