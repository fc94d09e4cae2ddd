"use client";
import { useState } from "react";
import { ActionError } from "@/components/ui/action-error";
import { Button, Field, Input } from "@/components/ui/primitives";
import { useActionForm } from "@/components/ui/use-action-form";
import { importPlaybookAction } from "@/lib/actions/import-playbook";
import { importPlaybookSchema } from "@/lib/schemas/playbook";

/**
 * Imports a playbook.json read in the browser. Legacy entries (bare strings, dicts
 * without counters, dicts with `score`) are migrated on the server by the playbook spec's rules;
 * entries are matched by name, so an existing name has its text and counts replaced.
 */
export function ImportPlaybookForm() {
  const [file, setFile] = useState<File | null>(null);
  const {
    form,
    mutation: importer,
    submit,
    error,
    formFailure,
  } = useActionForm(importPlaybookSchema, importPlaybookAction, { defaultValues: { text: "" } });

  async function read() {
    importer.reset();
    form.setValue("text", file ? await file.text() : "");
    await submit();
  }

  return (
    <form
      aria-label="Import playbook.json"
      noValidate
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        void read();
      }}
    >
      <Field
        label="playbook.json"
        hint="Any legacy format; names already in the playbook are updated."
        error={error("text")}
      >
        <Input
          name="file"
          type="file"
          accept=".json,application/json"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
      </Field>
      <Button type="submit" disabled={importer.isPending}>
        {importer.isPending ? "Importing…" : "Import"}
      </Button>
      <ActionError failure={formFailure} />
      {importer.data ? (
        <div
          role="status"
          data-testid="import-result"
          className="space-y-1 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900"
        >
          <p>
            Imported: <span data-testid="import-created">{importer.data.created}</span> created,{" "}
            <span data-testid="import-updated">{importer.data.updated}</span> updated.
          </p>
          {importer.data.warnings.length > 0 ? (
            <ul className="list-disc pl-5 text-amber-800" aria-label="Import warnings">
              {importer.data.warnings.map((w, i) => (
                <li key={i}>{w}</li>
              ))}
            </ul>
          ) : (
            <p className="text-xs">No warnings.</p>
          )}
        </div>
      ) : null}
    </form>
  );
}
