"use client";
import { CopyButton } from "@/components/ui/copy-button";
import { Button, ErrorText, Field, Input } from "@/components/ui/primitives";
import { useActionForm } from "@/components/ui/use-action-form";
import { createApiKeyAction } from "@/lib/actions/create-api-key";
import { API_KEY_SCOPES } from "@/lib/auth/roles";
import { createApiKeySchema } from "@/lib/schemas/api-key";

// Inputs carry their defaults too, so the server-rendered page shows them before hydration.
const DEFAULT_SCOPE = "ingest";

export function CreateApiKeyForm() {
  const {
    form,
    mutation: create,
    submit,
    error,
    formFailure,
  } = useActionForm(createApiKeySchema, createApiKeyAction, {
    defaultValues: { name: "", scopes: [DEFAULT_SCOPE] },
    onSuccess: (_, f) => f.setValue("name", ""),
  });

  return (
    <form className="space-y-3" onSubmit={submit}>
      <Field label="Name" error={error("name")} hint="What will use it, e.g. claude-code-laptop.">
        <Input {...form.register("name")} />
      </Field>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium text-slate-700">Scopes</legend>
        {API_KEY_SCOPES.map((scope) => (
          <label key={scope} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              value={scope}
              defaultChecked={scope === DEFAULT_SCOPE}
              {...form.register("scopes")}
            />
            {scope}
          </label>
        ))}
        {error("scopes") ? (
          <span role="alert" className="block text-xs text-red-600">
            {error("scopes")}
          </span>
        ) : null}
      </fieldset>
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? "Creating…" : "Create key"}
      </Button>
      {formFailure ? <ErrorText>{formFailure.message}</ErrorText> : null}
      {create.data ? (
        <div role="status" className="space-y-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          <p>Copy this key now: it is not stored and will not be shown again.</p>
          <input
            readOnly
            aria-label="New API key"
            value={create.data.key}
            className="w-full rounded border border-amber-200 bg-white px-2 py-1 font-mono text-xs"
            onFocus={(e) => e.target.select()}
          />
          <CopyButton text={create.data.key} label="Copy key" />
        </div>
      ) : null}
    </form>
  );
}
