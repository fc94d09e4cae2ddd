"use client";
import { saveCoreAction } from "@/lib/actions/save-core";
import type { ConstitutionFile } from "@/lib/constitution/parse";
import { CORE_FILE } from "@/lib/constitution/schema";
import { ConstitutionFileEditor } from "./constitution-file-editor";
import { coreDraftFromYaml, coreDraftToYaml } from "./core-draft";
import { CoreForm } from "./core-form";

/** Edits `core.yaml` in the shared file editor, with the core form. */
export function CoreEditor({
  original,
  files,
  baseVersionId,
  canEdit,
}: {
  original: string;
  files: ConstitutionFile[];
  baseVersionId: number;
  canEdit: boolean;
}) {
  return (
    <ConstitutionFileEditor
      noun="core file"
      path={CORE_FILE}
      original={original}
      files={files}
      baseVersionId={baseVersionId}
      canEdit={canEdit}
      read={coreDraftFromYaml}
      write={coreDraftToYaml}
      renderForm={(props) => <CoreForm {...props} />}
      save={saveCoreAction}
      reloadHref="/constitution/core"
    />
  );
}
