import type { ReactNode } from "react";
import type { PrincipleText as Text } from "./types";

function Examples({ title, items, tone }: { title: string; items: string[]; tone: string }) {
  if (items.length === 0) return null;
  return (
    <div>
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      <ul className={`mt-1 list-disc space-y-1 pl-5 ${tone}`}>
        {items.map((item, i) => (
          <li key={i} className="whitespace-pre-wrap break-words">
            {item}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      <div className="mt-1">{children}</div>
    </div>
  );
}

/** A principle's text: the rule, examples on either side of it, the remediation and the retrieval keywords. */
export function PrincipleTextView({ text }: { text: Text }) {
  return (
    <div className="space-y-4 text-sm text-slate-800" data-testid="principle-text">
      <Section title="Rule">
        <p className="whitespace-pre-wrap break-words">{text.rule}</p>
      </Section>
      <Examples title="Allowed" items={text.examples_allow} tone="text-emerald-800" />
      <Examples title="Denied" items={text.examples_deny} tone="text-red-800" />
      {text.remediation ? (
        <Section title="Remediation">
          <p className="whitespace-pre-wrap break-words">{text.remediation}</p>
        </Section>
      ) : null}
      {text.keywords.length > 0 ? (
        <Section title="Keywords">
          <p className="flex flex-wrap gap-1">
            {text.keywords.map((k) => (
              <span key={k} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                {k}
              </span>
            ))}
          </p>
        </Section>
      ) : null}
    </div>
  );
}
