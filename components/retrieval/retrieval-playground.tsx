"use client";
import { useEffect, useRef, useState } from "react";
import { TextArea } from "@/components/constitution/text-area";
import { Button, Card, ErrorText, Field, Input, Options, Select } from "@/components/ui/primitives";
import { fieldError, useAction } from "@/components/ui/use-action";
import { retrieveAction } from "@/lib/actions/retrieve";
import { retrieveSchema } from "@/lib/schemas/constitution";
import { DetectedDomains } from "./detected-domains";
import { RetrievalDebug } from "./retrieval-debug";
import { RetrievedPrinciples } from "./retrieved-principles";
import { contextText } from "./why";

/**
 * Runs a prompt through retrieval and shows what would be injected, and why. An
 * `initialPrompt` (from `?prompt=`, e.g. a failing eval case) is filled in and run once on load.
 */
export function RetrievalPlayground({
  domains,
  initialPrompt = "",
}: {
  domains: string[];
  initialPrompt?: string;
}) {
  const [prompt, setPrompt] = useState(initialPrompt);
  const [topK, setTopK] = useState("");
  const [domain, setDomain] = useState("");
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const run = useAction(retrieveAction);
  const error = (field: string) => clientErrors[field] ?? fieldError(run.error, field);
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
        <form
          aria-label="Retrieve principles"
          noValidate
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            const input = {
              prompt,
              topK: topK.trim() ? Number(topK) : undefined,
              domain: domain || undefined,
            };
            const parsed = retrieveSchema.safeParse(input);
            if (!parsed.success) {
              setClientErrors(
                Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])),
              );
              return;
            }
            setClientErrors({});
            run.mutate(input);
          }}
        >
          <Field label="Prompt" error={error("prompt")}>
            <TextArea
              rows={4}
              value={prompt}
              onChange={(e) => setPrompt(e.target.value)}
              placeholder="I have had severe headaches for three days"
            />
          </Field>
          <div className="flex flex-wrap items-end gap-3">
            <Field label="Top k" hint="Empty for the default." error={error("topK")}>
              <Input
                type="number"
                min={1}
                max={100}
                value={topK}
                onChange={(e) => setTopK(e.target.value)}
                className="block w-28"
              />
            </Field>
            <Field label="Domain" hint="Or let Charter detect it." error={error("domain")}>
              <Select value={domain} onChange={(e) => setDomain(e.target.value)} className="block">
                <option value="">Detect automatically</option>
                <Options values={domains} />
              </Select>
            </Field>
            <Button type="submit" disabled={run.isPending}>
              {run.isPending ? "Retrieving…" : "Retrieve"}
            </Button>
          </div>
          {run.isError && !run.error.error.details ? (
            <ErrorText>{run.error.message}</ErrorText>
          ) : null}
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
          <Card title="Debug">
            <RetrievalDebug debug={run.data.debug} />
          </Card>
        </>
      ) : null}
    </div>
  );
}
