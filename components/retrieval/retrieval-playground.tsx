"use client";
import { useEffect, useRef } from "react";
import { TextArea } from "@/components/ui/text-area";
import { Button, Card, ErrorText, Field, Input, Options, Select } from "@/components/ui/primitives";
import { useActionForm } from "@/components/ui/use-action-form";
import { retrieveAction } from "@/lib/actions/retrieve";
import { retrieveSchema } from "@/lib/schemas/constitution";
import type { LabelChoices } from "@/lib/schemas/labels";
import { LabelPanel } from "@/components/labels/label-panel";
import { DetectedDomains } from "./detected-domains";
import { RetrievalDebug } from "./retrieval-debug";
import { RetrievedPrinciples } from "./retrieved-principles";
import { contextText } from "./why";

/**
 * Runs a prompt through retrieval and shows what would be injected, and why. An
 * `initialPrompt` (from `?prompt=`, e.g. a failing eval case) is filled in and run once on load.
 * With `labels` (editors), the result can be labelled for the eval set.
 */
export function RetrievalPlayground({
  domains,
  initialPrompt = "",
  labels = null,
}: {
  domains: string[];
  initialPrompt?: string;
  labels?: LabelChoices | null;
}) {
  const {
    form,
    mutation: run,
    submit,
    error,
    formFailure,
  } = useActionForm(retrieveSchema, retrieveAction, { defaultValues: { prompt: initialPrompt } });
  const { mutate } = run;
  // Effects run twice in development's strict mode; the prompt from the address is run once.
  const ranInitial = useRef(false);
  useEffect(() => {
    if (ranInitial.current || !retrieveSchema.safeParse({ prompt: initialPrompt }).success) return;
    ranInitial.current = true;
    mutate({ prompt: initialPrompt });
  }, [initialPrompt, mutate]);

  return (
    <div className="space-y-6">
      <Card>
        <form aria-label="Retrieve principles" noValidate className="space-y-3" onSubmit={submit}>
          <Field label="Prompt" error={error("prompt")}>
            <TextArea
              rows={4}
              placeholder="I have had severe headaches for three days"
              defaultValue={initialPrompt}
              {...form.register("prompt")}
            />
          </Field>
          <div className="flex flex-wrap items-end gap-3">
            <Field label="Top k" hint="Empty for the default." error={error("topK")}>
              <Input
                type="number"
                min={1}
                max={100}
                className="block w-28"
                {...form.register("topK", {
                  setValueAs: (v: string) => (v.trim() ? Number(v) : undefined),
                })}
              />
            </Field>
            <Field label="Domain" hint="Or let Charter detect it." error={error("domain")}>
              <Select
                className="block"
                {...form.register("domain", { setValueAs: (v: string) => v || undefined })}
              >
                <option value="">Detect automatically</option>
                <Options values={domains} />
              </Select>
            </Field>
            <Button type="submit" disabled={run.isPending}>
              {run.isPending ? "Retrieving…" : "Retrieve"}
            </Button>
          </div>
          {formFailure ? <ErrorText>{formFailure.message}</ErrorText> : null}
        </form>
      </Card>
      {run.data ? (
        <>
          <Card title="Detected domains">
            <DetectedDomains domains={run.data.domains} />
          </Card>
          <Card title={`Retrieved principles (constitution version ${run.data.version})`}>
            <div className="space-y-2">
              <RetrievedPrinciples principles={run.data.principles} />
              <p data-testid="context-budget" className="text-xs text-slate-600">
                Injected context: {contextText(run.data.debug.context)}
              </p>
            </div>
          </Card>
          {labels && run.variables ? (
            <Card title="Label for the eval set">
              <LabelPanel
                key={run.submittedAt}
                prompt={run.variables.prompt}
                injected={run.data.principles.map((p) => p.id)}
                detected={run.data.domains.map((d) => d.domain)}
                choices={labels}
              />
            </Card>
          ) : null}
          <Card title="Debug">
            <RetrievalDebug debug={run.data.debug} />
          </Card>
        </>
      ) : null}
    </div>
  );
}
