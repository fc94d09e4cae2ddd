import { allPrinciples, withFile } from "@/lib/constitution";
import {
  labelDraft,
  reviewedCases,
  unlabelDraft,
  type ReviewLabel,
} from "@/lib/constitution/review-labels";
import type { Actor } from "@/lib/db/audit";
import { constitutionVersions, type Version } from "@/lib/db/constitution";
import { turns } from "@/lib/db/turns";
import { UnavailableError, ValidationError } from "@/lib/errors";
import {
  CONFIRM_MESSAGE,
  type AcceptedLabel,
  type Label,
  type LabelChoices,
  type LabelDraftView,
  type ReviewedLabels,
} from "@/lib/schemas/labels";

/**
 * Labels from review (lib/constitution/review-labels.ts) made on the version in force: a
 * draft for the impact preview, accepting it as a new version, and removing one. Each
 * save goes through the one constitution save (validated whole, a stale base refused as
 * a conflict) and is audited with the label's turn and session, never its prompt.
 */

async function current(): Promise<Version> {
  const version = await constitutionVersions.current();
  if (!version) throw new UnavailableError("No constitution is loaded yet.");
  return version;
}

/** The label as the engine takes it, with its provenance from the server's own records. */
async function toLabel(label: Label, actor: Actor, at: Date): Promise<ReviewLabel> {
  const turn = label.turnId ? (await turns.get(label.turnId)).turn : null;
  return {
    prompt: label.prompt,
    domains: label.domains,
    verdict:
      label.verdict === "domains_only"
        ? null
        : {
            list: label.verdict === "did_not_apply" ? "forbid" : "expect",
            principle: label.principle!,
          },
    note: label.note,
    source: {
      kind: "review",
      ...(turn ? { turn_id: turn.id, session_id: turn.sessionId } : {}),
      by: actor.label || actor.id || "unknown",
      at: at.toISOString(),
    },
  };
}

/** What the label form offers: the principles and overlay domains of the version in force. */
export async function labelChoices(): Promise<LabelChoices | null> {
  const version = await constitutionVersions.current();
  if (!version) return null;
  return {
    versionId: version.id,
    principles: allPrinciples(version.constitution)
      .map((p) => ({ id: p.id, title: p.title }))
      .sort((a, b) => a.id.localeCompare(b.id)),
    domains: Object.keys(version.constitution.overlays).sort(),
  };
}

/** What accepting `input` on the version in force would write. Writes nothing. */
export async function draftLabel(input: Label, actor: Actor): Promise<LabelDraftView> {
  const version = await current();
  const draft = labelDraft(version, await toLabel(input, actor, new Date()));
  return { baseVersionId: version.id, ...draft };
}

function describe(label: ReviewLabel): string {
  const where = label.source.turn_id ? ` (turn ${label.source.turn_id})` : " (Retrieval page)";
  if (label.verdict)
    return `${label.verdict.principle} ${label.verdict.list === "expect" ? "should have applied" : "did not apply"}${where}`;
  return `${label.domains.length ? `domains ${label.domains.join(", ")}` : "no domain applies"}${where}`;
}

/**
 * Accepts a confirmed label as a new version on top of `baseVersionId`, the version its
 * preview was made on: a conflict (409, naming the version in force) when another
 * version was saved since.
 */
export async function acceptLabel(
  input: AcceptedLabel,
  actor: Actor,
): Promise<{ versionId: number; change: "added" | "updated" }> {
  // The prompt may hold a secret: nothing is stored unless the editor said it may be.
  if (input.confirmed !== true)
    throw new ValidationError(CONFIRM_MESSAGE, [{ path: "confirmed", message: CONFIRM_MESSAGE }]);
  const base = await constitutionVersions.get(input.baseVersionId);
  const label = await toLabel(input, actor, new Date());
  const draft = labelDraft(base, label);
  const saved = await constitutionVersions.save(
    {
      files: withFile(base.files, draft.path, draft.text),
      baseVersionId: base.id,
      message: `Label from review${draft.change === "updated" ? " (case changed)" : ""}: ${describe(label)}`,
      action: "constitution.label_added",
      file: draft.path,
      details: {
        change: draft.change,
        turn_id: label.source.turn_id ?? null,
        session_id: label.source.session_id ?? null,
        domains: draft.case.domains,
        expect: draft.case.expect,
        forbid: draft.case.forbid,
      },
    },
    actor,
  );
  return { versionId: saved.id, change: draft.change };
}

/** Removes the reviewed case of `prompt` as a new version on top of `baseVersionId`. */
export async function removeLabel(
  input: { prompt: string; baseVersionId: number },
  actor: Actor,
): Promise<{ versionId: number }> {
  const base = await constitutionVersions.get(input.baseVersionId);
  const { path, text, removed } = unlabelDraft(base, input.prompt);
  const turn = removed.source?.turn_id;
  const saved = await constitutionVersions.save(
    {
      files: withFile(base.files, path, text),
      baseVersionId: base.id,
      message: `Removed a label from review${turn ? ` (turn ${turn})` : ""}`,
      action: "constitution.label_removed",
      file: path,
      details: {
        turn_id: turn ?? null,
        session_id: removed.source?.session_id ?? null,
        labelled_by: removed.source?.by ?? null,
      },
    },
    actor,
  );
  return { versionId: saved.id };
}

/** The reviewed cases of the version in force (null before the first import). */
export async function reviewedLabels(): Promise<ReviewedLabels | null> {
  const version = await constitutionVersions.current();
  return version ? { versionId: version.id, labels: reviewedCases(version) } : null;
}
