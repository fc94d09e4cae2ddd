"use client";
import { useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { Button, ErrorText, Field, Input } from "@/components/ui/primitives";
import { fieldError, useAction } from "@/components/ui/use-action";
import { createApiKeyAction } from "@/lib/actions/create-api-key";
import { API_KEY_SCOPES, type ApiKeyScope } from "@/lib/auth/roles";
import { createApiKeySchema } from "@/lib/schemas/api-key";

export function CreateApiKeyForm() {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ApiKeyScope[]>(["ingest"]);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const create = useAction(createApiKeyAction, { onSuccess: () => setName("") });
  const error = (field: string) => clientErrors[field] ?? fieldError(create.error, field);

  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = createApiKeySchema.safeParse({ name, scopes });
        if (!parsed.success) {
          setClientErrors(
            Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])),
          );
          return;
        }
        setClientErrors({});
        create.mutate({ name, scopes });
      }}
    >
      <Field label="Name" error={error("name")} hint="What will use it, e.g. claude-code-laptop.">
        <Input name="name" value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium text-slate-700">Scopes</legend>
        {API_KEY_SCOPES.map((scope) => (
          <label key={scope} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={scopes.includes(scope)}
              onChange={(e) =>
                setScopes(e.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))
              }
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
      {create.isError && !create.error.error.details ? (
        <ErrorText>{create.error.message}</ErrorText>
      ) : null}
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
