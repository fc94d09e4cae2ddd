"use client";
import { useCallback } from "react";
import { saveOverlayAction } from "@/lib/actions/save-overlay";
import type { ConstitutionFile } from "@/lib/constitution/parse";
import { ConstitutionFileEditor } from "./constitution-file-editor";
import { draftFromYaml, draftToYaml, type OverlayDraft } from "./overlay-draft";
import { OverlayForm } from "./overlay-form";

/** Edits one overlay (`overlays/<domain>.yaml`) in the shared file editor, with the overlay form. */
export function OverlayEditor({
  domain,
  path,
  original,
  files,
  baseVersionId,
  canEdit,
}: {
  domain: string;
  /** Where the overlay is saved (`overlays/<domain>.yaml`); `original` is its text in the base version. */
  path: string;
  original: string;
  files: ConstitutionFile[];
  baseVersionId: number;
  canEdit: boolean;
}) {
  const read = useCallback((text: string) => draftFromYaml(text, domain), [domain]);
  const write = useCallback(
    (draft: OverlayDraft, readFrom: { draft: OverlayDraft; text: string }) =>
      draftToYaml(domain, draft, readFrom),
    [domain],
  );
  return (
    <ConstitutionFileEditor
      noun="overlay"
      path={path}
      original={original}
      files={files}
      baseVersionId={baseVersionId}
      canEdit={canEdit}
      read={read}
      write={write}
      renderForm={(props) => <OverlayForm {...props} />}
      save={(input) => saveOverlayAction({ domain, ...input })}
      reloadHref={`/constitution/overlays/${domain}`}
    />
  );
}
