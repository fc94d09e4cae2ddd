import { NotFoundError, ValidationError } from "@/lib/errors";
import { EVAL_DIR, type EvalCase, type EvalSet, type EvalSource } from "./eval-schema";
import { dropCase, promptKey, putCase, type EvalCaseFields } from "./eval-yaml";
import { allPrinciples } from "./overlay";
import type { ConstitutionFile } from "./parse";
import type { Constitution } from "./schema";

/**
 * Labels from review: a person reading a turn, a session or the retrieval playground says
 * that an injected principle did not apply, that a principle should have applied, or
 * which domains (none included) a prompt belongs to. Each label is an eval case in the
 * constitution's `eval/reviewed.yaml`, one case per prompt, with its provenance.
 */

/** The eval file that holds the cases made from labels. */
export const REVIEWED_FILE = `${EVAL_DIR}/reviewed.yaml`;
const REVIEWED_TWIN = `${EVAL_DIR}/reviewed.yml`;

const HEADER = [
  " Eval cases from reviewers' labels, made on a turn, a session or the Retrieval page.",
  " Charter adds, changes and removes them (each a new constitution version, audited);",
  " a prompt is one case here, and is not in another eval file.",
].join("\n");

/** What a reviewer says about one prompt. */
export type ReviewLabel = {
  prompt: string;
  /** The overlay domains the prompt belongs to; `[]`: none applies. */
  domains: string[];
  /** `forbid`: the principle was injected and did not apply; `expect`: it should have applied; null: the domains alone. */
  verdict: { list: "expect" | "forbid"; principle: string } | null;
  note?: string;
  source: EvalSource;
};

/** The parts of a version a label is made on. */
export type LabelledVersion = {
  id: number;
  files: readonly ConstitutionFile[];
  constitution: Constitution;
  evals: EvalSet;
};

/** What accepting a label would write: the reviewed file's new text, and its case before and after. */
export type LabelDraft = {
  path: string;
  text: string;
  change: "added" | "updated";
  case: EvalCaseFields;
  before: EvalCaseFields | null;
};

/** A case made from a label, as the Evals page lists it. */
export type ReviewedCase = EvalCaseFields & { line: number };

export const isReviewedFile = (file: string): boolean =>
  file === REVIEWED_FILE || file === REVIEWED_TWIN;

function reviewedText(files: readonly ConstitutionFile[]): string | null {
  return (
    files.find((f) => f.path === REVIEWED_FILE)?.text ??
    files.find((f) => f.path === REVIEWED_TWIN)?.text ??
    null
  );
}

const fieldsOf = (c: EvalCase): EvalCaseFields => ({
  prompt: c.prompt,
  domains: c.domains,
  expect: c.expect,
  forbid: c.forbid,
  ...(c.note === undefined ? {} : { note: c.note }),
  ...(c.source === undefined ? {} : { source: c.source }),
});

const refuse = (path: string, message: string) =>
  new ValidationError(`${message} Nothing was saved.`, [{ path, message }]);

/** The reviewed cases of a version, in file order. */
export function reviewedCases(version: Pick<LabelledVersion, "evals">): ReviewedCase[] {
  return version.evals.cases
    .filter((c) => isReviewedFile(c.file))
    .map((c) => ({ ...fieldsOf(c), line: c.line }));
}

/**
 * The reviewed file after `label`: a new case, or the prompt's case changed (its domains
 * replaced, the principle added to `expect` or `forbid` and taken out of the other list,
 * its provenance the new label's). Refused with nothing to write: a prompt that is a case
 * in another eval file (prompts are unique across the set), a domain with no overlay, a
 * principle the version does not define.
 */
export function labelDraft(version: LabelledVersion, label: ReviewLabel): LabelDraft {
  const key = promptKey(label.prompt);
  if (!key) throw refuse("prompt", "Enter the prompt the label is about.");
  const elsewhere = version.evals.cases.find(
    (c) => !isReviewedFile(c.file) && promptKey(c.prompt) === key,
  );
  if (elsewhere)
    throw refuse(
      "prompt",
      `This prompt is already an eval case in ${elsewhere.file} (line ${elsewhere.line}); change that case instead.`,
    );
  const overlays = new Set(Object.keys(version.constitution.overlays));
  const unknown = label.domains.filter((d) => !overlays.has(d));
  if (unknown.length)
    throw refuse(
      "domains",
      `${unknown.map((d) => `"${d}"`).join(", ")} ${unknown.length === 1 ? "is not an overlay" : "are not overlays"} of version ${version.id}.`,
    );
  const principle = label.verdict?.principle;
  if (principle && !allPrinciples(version.constitution).some((p) => p.id === principle))
    throw refuse(
      "principle",
      `"${principle}" is not a principle of version ${version.id} (the constitution in force).`,
    );

  const existing = version.evals.cases.find(
    (c) => isReviewedFile(c.file) && promptKey(c.prompt) === key,
  );
  const before = existing ? fieldsOf(existing) : null;
  const list = (name: "expect" | "forbid") => {
    const kept = (before?.[name] ?? []).filter((id) => id !== principle);
    return label.verdict?.list === name ? [...kept, principle!] : kept;
  };
  const note = label.note?.trim() || before?.note;
  const fields: EvalCaseFields = {
    prompt: label.prompt.trim(),
    domains: [...new Set(label.domains)],
    expect: list("expect"),
    forbid: list("forbid"),
    ...(note ? { note } : {}),
    source: label.source,
  };
  const { text, change } = putCase(reviewedText(version.files), fields, {
    file: REVIEWED_FILE,
    header: HEADER,
  });
  return { path: REVIEWED_FILE, text, change, case: fields, before };
}

/** The reviewed file without the case of `prompt`; refused when it has none. */
export function unlabelDraft(
  version: Pick<LabelledVersion, "id" | "files" | "evals">,
  prompt: string,
): { path: string; text: string; removed: ReviewedCase } {
  const removed = reviewedCases(version).find((c) => promptKey(c.prompt) === promptKey(prompt));
  const text = reviewedText(version.files);
  const after = removed && text !== null ? dropCase(text, prompt, REVIEWED_FILE) : null;
  if (!removed || after === null)
    throw new NotFoundError(
      `Version ${version.id} has no reviewed label for this prompt: it may have been removed already.`,
    );
  return { path: REVIEWED_FILE, text: after, removed };
}
