"use client";
import { useId, useState } from "react";
import { Field, Input, Select } from "@/components/ui/primitives";
import type { LabelChoices, LabelVerdict } from "@/lib/schemas/labels";

/** The inputs of a label, shown by LabelPanel: each a controlled value with its setter. */

const FIND_LIMIT = 200;

const errorLine = (error?: string) =>
  error ? (
    <span role="alert" className="block text-xs text-red-600">
      {error}
    </span>
  ) : null;

/** What the label says, as radio buttons; "did not apply" needs a principle that was injected. */
export function VerdictFields({
  verdict,
  onVerdict,
  canSayNotApplied,
}: {
  verdict: LabelVerdict;
  onVerdict: (v: LabelVerdict) => void;
  canSayNotApplied: boolean;
}) {
  const name = useId();
  const options: [LabelVerdict, string, boolean][] = [
    ["did_not_apply", "An injected principle did not apply", canSayNotApplied],
    ["should_apply", "A principle should have applied", true],
    ["domains_only", "Only the prompt's domains", true],
  ];
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium text-slate-700">The label</legend>
      {options.map(([value, text, enabled]) => (
        <label key={value} className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="radio"
            name={name}
            value={value}
            checked={verdict === value}
            disabled={!enabled}
            onChange={() => onVerdict(value)}
          />
          <span className={enabled ? undefined : "text-slate-400"}>{text}</span>
        </label>
      ))}
      {canSayNotApplied ? null : (
        <p className="text-xs text-slate-500">No principle was injected for this prompt.</p>
      )}
    </fieldset>
  );
}

/** One of the principles injected for the prompt (for "did not apply"). */
export function InjectedPicker({
  injected,
  titles,
  value,
  onChange,
  error,
}: {
  injected: string[];
  titles: Map<string, string>;
  value: string;
  onChange: (id: string) => void;
  error?: string;
}) {
  return (
    <Field label="Principle that did not apply" error={error}>
      <Select className="w-full" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Choose…</option>
        {injected.map((id) => (
          <option key={id} value={id}>
            {titles.has(id) ? `${id}: ${titles.get(id)}` : `${id} (not in the current version)`}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** Any principle of the constitution in force, found by id or title (for "should have applied"). */
export function PrinciplePicker({
  principles,
  value,
  onChange,
  error,
}: {
  principles: LabelChoices["principles"];
  value: string;
  onChange: (id: string) => void;
  error?: string;
}) {
  const [find, setFind] = useState("");
  const words = find.toLowerCase().split(/\s+/).filter(Boolean);
  const found = principles.filter((p) => {
    const text = `${p.id} ${p.title}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
  const shown = found.slice(0, FIND_LIMIT);
  // The chosen principle stays listed whatever the search, so the select shows it.
  const chosen = principles.find((p) => p.id === value);
  if (chosen && !shown.includes(chosen)) shown.unshift(chosen);
  return (
    <div className="space-y-1">
      <Field label="Find a principle" hint="Type words of its id or title.">
        <Input type="search" value={find} onChange={(e) => setFind(e.target.value)} />
      </Field>
      <label className="block space-y-1">
        <span className="text-sm font-medium text-slate-700">
          Principle that should have applied
        </span>
        <Select
          className="w-full"
          size={6}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        >
          {shown.map((p) => (
            <option key={p.id} value={p.id}>
              {p.id}: {p.title}
            </option>
          ))}
        </Select>
        <span className="block text-xs text-slate-500">
          {found.length === 0
            ? "No principle matches."
            : found.length > shown.length
              ? `${shown.length} of ${found.length} shown: type more to narrow.`
              : `${found.length} ${found.length === 1 ? "principle" : "principles"}.`}
        </span>
        {errorLine(error)}
      </label>
    </div>
  );
}

/** The overlay domains the prompt belongs to; none ticked: no overlay applies. */
export function DomainFields({
  domains,
  value,
  onChange,
  note,
  error,
}: {
  domains: string[];
  value: string[];
  onChange: (domains: string[]) => void;
  note?: string;
  error?: string;
}) {
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium text-slate-700">Domains</legend>
      <div className="grid grid-cols-2 gap-x-3 gap-y-1">
        {domains.map((d) => (
          <label key={d} className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              checked={value.includes(d)}
              onChange={(e) =>
                onChange(e.target.checked ? [...value, d] : value.filter((x) => x !== d))
              }
            />
            <span className="font-mono text-xs">{d}</span>
          </label>
        ))}
      </div>
      <p className="text-xs text-slate-500" data-testid="label-domains-note">
        {value.length === 0 ? "None ticked: no overlay applies to this prompt. " : ""}
        {note}
      </p>
      {errorLine(error)}
    </fieldset>
  );
}
