import { PrincipleChips } from "@/components/principles/principle-chips";

export type ContextDelivery =
  "delivered" | "spooled" | "imported" | "unsupported" | "none" | string;

/** Why a turn's retrieved context did not reach the agent, in words. */
export const UNDELIVERED: Record<string, string> = {
  spooled:
    "The agent was not given this context: the hook could not reach the server in time, spooled the prompt and sent it later.",
  imported:
    "The agent was not given this context: the session was imported from a transcript, so Charter never answered its prompts.",
  unsupported:
    "The agent was not given this context: it cannot take context with a prompt (Cursor's beforeSubmitPrompt, an OpenTelemetry trace). Cursor is given the hard constraints at the start of each session instead.",
};

const UNDELIVERED_LABEL: Record<string, string> = {
  spooled: "spooled: nothing injected",
  imported: "imported: nothing injected",
  unsupported: "agent takes no context: nothing injected",
};

function PrincipleList({
  ids,
  titles,
  testId,
}: {
  ids: string[];
  titles: Map<string, string>;
  testId: string;
}) {
  return (
    <ul className="space-y-1 text-sm">
      {ids.map((id) => (
        <li key={id} data-testid={`${testId}-${id}`}>
          <span className="font-mono text-xs text-slate-900">{id}</span>{" "}
          {titles.has(id) ? (
            <span className="text-slate-700">{titles.get(id)}</span>
          ) : (
            <span className="italic text-slate-400">not in the current constitution</span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** A prompt's principles: those injected, or (not delivered) those that would have been. */
type InjectedProps = {
  ids: string[];
  retrieved?: string[];
  delivery?: ContextDelivery;
  titles: Map<string, string>;
};

/**
 * The constitution principles injected into the agent's context for the prompt, or,
 * when the context never reached the agent, what would have been injected: shown
 * for review, never credited.
 */
export function InjectedPrinciples({
  ids,
  retrieved = [],
  delivery = "delivered",
  titles,
}: InjectedProps) {
  const note = UNDELIVERED[delivery];
  if (note) {
    return (
      <div className="space-y-2" data-testid="context-undelivered">
        <p className="text-sm text-amber-800">{note} Its principles are not credited.</p>
        {retrieved.length ? (
          <>
            <p className="text-xs font-medium uppercase tracking-wide text-slate-500">
              Would have injected ({retrieved.length})
            </p>
            <PrincipleList ids={retrieved} titles={titles} testId="would-inject" />
          </>
        ) : null}
      </div>
    );
  }
  if (ids.length === 0)
    return <p className="text-sm text-slate-500">No principles were injected for this prompt.</p>;
  return <PrincipleList ids={ids} titles={titles} testId="injected" />;
}

/** One line for a session's timeline: the injected principles, or what would have been. */
export function InjectedChips({
  ids,
  retrieved = [],
  delivery = "delivered",
  titles,
}: InjectedProps) {
  if (UNDELIVERED[delivery]) {
    return (
      <span className="flex flex-wrap items-center gap-2" title={UNDELIVERED[delivery]}>
        <span className="text-amber-800">{UNDELIVERED_LABEL[delivery]}</span>
        {retrieved.length ? (
          <>
            would have injected <PrincipleChips ids={retrieved} titles={titles} />
          </>
        ) : null}
      </span>
    );
  }
  return (
    <>
      injected <PrincipleChips ids={ids} titles={titles} />
    </>
  );
}
