import type { ReactNode } from "react";
import { formatUnit } from "@/lib/format";
import type { CoreDraft } from "./core-draft";
import { LevelBadge } from "./level-badge";
import type { OverlayDraft } from "./overlay-draft";
import { splitList, type PrincipleDraft } from "./principle-draft";

const NONE = <span className="text-slate-400">—</span>;

/** One labelled value; text keeps its line breaks and is rendered as text, never as HTML. */
function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 whitespace-pre-wrap text-sm text-slate-800">{children}</dd>
    </div>
  );
}

const textOrNone = (text: string) => (text.trim() ? text : NONE);

function Lines({ text }: { text: string }) {
  const lines = splitList(text, "\n");
  if (lines.length === 0) return NONE;
  return (
    <ul className="list-disc pl-5">
      {lines.map((line, i) => (
        <li key={i}>{line}</li>
      ))}
    </ul>
  );
}

/** A comma-separated list as chips. */
function Chips({ text }: { text: string }) {
  const items = splitList(text, ",");
  if (items.length === 0) return NONE;
  return (
    <span className="flex flex-wrap gap-1">
      {items.map((item, i) => (
        <span
          key={i}
          className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700"
        >
          {item}
        </span>
      ))}
    </span>
  );
}

function PrincipleView({
  principle: p,
  index,
  core,
}: {
  principle: PrincipleDraft;
  index: number;
  core: boolean;
}) {
  return (
    <article
      aria-label={`Principle ${index + 1}${p.id ? ` ${p.id}` : ""}`}
      className="space-y-3 rounded-md border border-slate-200 p-3"
    >
      <header className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-xs text-slate-500">{p.id || "(no id)"}</span>
        <LevelBadge level={p.level} />
        <span className="text-xs text-slate-600">priority {p.priority || "—"}</span>
        {core && p.domain ? <span className="text-xs text-slate-600">label {p.domain}</span> : null}
      </header>
      <h4 className="text-sm font-semibold text-slate-900">{p.title || "(no title)"}</h4>
      <dl className="space-y-3">
        <Item label="Rule">{textOrNone(p.rule)}</Item>
        <div className="grid gap-3 md:grid-cols-2">
          <Item label="Examples to allow">
            <Lines text={p.examplesAllow} />
          </Item>
          <Item label="Examples to deny">
            <Lines text={p.examplesDeny} />
          </Item>
        </div>
        <Item label="Remediation">{textOrNone(p.remediation)}</Item>
        <Item label="Keywords">
          <Chips text={p.keywords} />
        </Item>
      </dl>
    </article>
  );
}

function PrinciplesView({
  title,
  principles,
  core,
}: {
  title: string;
  principles: PrincipleDraft[];
  core: boolean;
}) {
  return (
    <section className="space-y-3" aria-label={title}>
      <h3 className="text-sm font-medium text-slate-700">
        {title} ({principles.length})
      </h3>
      {principles.length === 0 ? <p className="text-sm text-slate-500">None.</p> : null}
      {principles.map((p, i) => (
        <PrincipleView key={p.key} principle={p} index={i} core={core} />
      ))}
    </section>
  );
}

/** A risk floor as written: a 0..1 number in the dashboard's format, anything else as typed. */
function riskFloor(text: string): ReactNode {
  if (text.trim() === "") return NONE;
  const n = Number(text);
  return Number.isFinite(n) ? formatUnit(n) : text;
}

/** An overlay as text, for people who may read it but not change it. */
export function OverlayView({ draft }: { draft: OverlayDraft }) {
  const { settings } = draft;
  return (
    <div className="space-y-6">
      <dl className="space-y-3">
        <Item label="Description">{textOrNone(draft.description)}</Item>
        <Item label="Keywords">
          <Chips text={draft.keywords} />
        </Item>
        <div className="grid gap-3 md:grid-cols-3">
          <Item label="Sensitive">{settings.sensitive ? "Yes" : "No"}</Item>
          <Item label="Excluded">{settings.excluded ? "Yes" : "No"}</Item>
          <Item label="Risk floor">{riskFloor(settings.riskFloor)}</Item>
        </div>
        <Item label="Refusal redirection">{textOrNone(settings.refusalRedirection)}</Item>
        <Item label="Simulator guidance">{textOrNone(settings.simulatorGuidance)}</Item>
        <Item label="Priority overrides">
          {draft.overrides.length === 0 ? (
            NONE
          ) : (
            <ul className="font-mono text-xs">
              {draft.overrides.map((o) => (
                <li key={o.key}>{`${o.id} → ${o.priority}`}</li>
              ))}
            </ul>
          )}
        </Item>
      </dl>
      <PrinciplesView title="Additional principles" principles={draft.principles} core={false} />
    </div>
  );
}

/** `core.yaml` as text, for people who may read it but not change it. */
export function CoreView({ draft }: { draft: CoreDraft }) {
  return (
    <div className="space-y-6">
      <dl>
        <Item label="Description">{textOrNone(draft.description)}</Item>
      </dl>
      <PrinciplesView title="Core principles" principles={draft.principles} core />
    </div>
  );
}
