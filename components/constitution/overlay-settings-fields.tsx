"use client";
import { Field, Input } from "@/components/ui/primitives";
import type { ConstitutionIssue } from "@/lib/constitution/schema";
import { issueText } from "./issues";
import type { OverlaySettingsDraft } from "./overlay-draft";
import { TextArea } from "@/components/ui/text-area";

/** The overlay's handling settings: sensitivity, exclusion, and the guidance texts. */
export function OverlaySettingsFields({
  settings,
  issues,
  onChange,
}: {
  settings: OverlaySettingsDraft;
  issues: readonly ConstitutionIssue[];
  onChange: (s: OverlaySettingsDraft) => void;
}) {
  const checkbox = (field: "sensitive" | "excluded", label: string, hint: string) => (
    <label className="flex items-start gap-2 text-sm">
      <input
        type="checkbox"
        className="mt-0.5"
        checked={settings[field]}
        onChange={(e) => onChange({ ...settings, [field]: e.target.checked })}
      />
      <span>
        <span className="font-medium text-slate-700">{label}</span>
        <span className="block text-xs text-slate-500">{hint}</span>
        {issueText(issues, field) ? (
          <span role="alert" className="block text-xs text-red-600">
            {issueText(issues, field)}
          </span>
        ) : null}
      </span>
    </label>
  );
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-700">Settings</legend>
      <div className="grid gap-3 md:grid-cols-3">
        {checkbox("sensitive", "Sensitive", "Requests in this domain carry a risk floor.")}
        {checkbox("excluded", "Excluded", "Never applied, even when detected.")}
        <Field
          label="Risk floor"
          hint="0 to 1; empty for none."
          error={issueText(issues, "sensitive_risk_floor")}
        >
          <Input
            type="number"
            step="0.05"
            min={0}
            max={1}
            value={settings.riskFloor}
            onChange={(e) => onChange({ ...settings, riskFloor: e.target.value })}
          />
        </Field>
      </div>
      <Field label="Refusal redirection" error={issueText(issues, "refusal_redirection")}>
        <TextArea
          rows={3}
          value={settings.refusalRedirection}
          onChange={(e) => onChange({ ...settings, refusalRedirection: e.target.value })}
        />
      </Field>
      <Field label="Simulator guidance" error={issueText(issues, "simulator_domain_guidance")}>
        <TextArea
          rows={3}
          value={settings.simulatorGuidance}
          onChange={(e) => onChange({ ...settings, simulatorGuidance: e.target.value })}
        />
      </Field>
    </fieldset>
  );
}
