import { Badge, Card } from "@/components/ui/primitives";
import { describeAuth } from "./auth";
import { FieldTable } from "./field-table";
import { InlineCode } from "./inline-code";
import { JsonBlock } from "@/components/ui/json-block";
import { schemaVariants, typeText, type JsonSchema } from "./schema";
import type { MediaTypes, OpenApiDoc, Operation } from "./types";

const METHOD_TONE = {
  get: "green",
  post: "indigo",
  put: "amber",
  patch: "amber",
  delete: "red",
} as const;

function statusTone(status: string) {
  if (status.startsWith("2")) return "green";
  return status === "503" ? "amber" : "red";
}

function Heading({ children }: { children: string }) {
  return <h3 className="font-medium text-slate-800">{children}</h3>;
}

/** The body's shapes as field tables (one per event type), with the full JSON Schema folded away. */
function BodyFields({ content }: { content: MediaTypes }) {
  const media = content["application/json"];
  if (!media?.schema) return null;
  const variants = schemaVariants(media.schema as JsonSchema);
  return (
    <div className="space-y-2">
      {variants.map((variant) => (
        <details key={variant.label} className="rounded border border-slate-200 px-3 py-2">
          <summary className="cursor-pointer text-sm">
            {variants.length > 1 ? <span className="text-slate-500">Shape </span> : null}
            <code className="font-mono text-xs text-slate-900">{variant.label}</code>
            <span className="text-xs text-slate-500"> · {variant.fields.length} fields</span>
          </summary>
          <div className="mt-2">
            {variant.fields.length > 0 ? (
              <FieldTable rows={variant.fields} label={`Fields of ${variant.label}`} />
            ) : null}
          </div>
        </details>
      ))}
      <details>
        <summary className="cursor-pointer text-xs text-slate-500">JSON Schema</summary>
        <JsonBlock value={media.schema} label="Request body schema" />
      </details>
    </div>
  );
}

/** One path and method of the API: what it does, how it authenticates, what it takes and answers. */
export function OperationCard({
  path,
  method,
  op,
  doc,
}: {
  path: string;
  method: keyof typeof METHOD_TONE;
  op: Operation;
  doc: OpenApiDoc;
}) {
  const parameters = op.parameters ?? [];
  const requestExample = op.requestBody?.content["application/json"]?.example;
  return (
    <div data-testid={`operation-${method}-${path}`}>
      <Card
        title={`${method.toUpperCase()} ${path}`}
        actions={<Badge tone={METHOD_TONE[method]}>{method.toUpperCase()}</Badge>}
      >
        <div className="space-y-5 text-sm">
          {op.summary ? <p className="font-medium text-slate-900">{op.summary}</p> : null}
          {op.description ? (
            <p className="text-slate-700">
              <InlineCode text={op.description} />
            </p>
          ) : null}
          <p>
            <span className="font-medium text-slate-800">Auth: </span>
            <span className="text-slate-700">
              <InlineCode text={describeAuth(op, doc)} />
            </span>
          </p>
          {parameters.length > 0 ? (
            <div className="space-y-2">
              <Heading>Parameters</Heading>
              <FieldTable
                label={`Parameters of ${method.toUpperCase()} ${path}`}
                rows={parameters.map((p) => ({
                  name: p.name,
                  where: p.in,
                  type: typeText(p.schema),
                  required: p.required ?? false,
                  description: p.description ?? p.schema?.description ?? "",
                }))}
              />
            </div>
          ) : null}
          {op.requestBody ? (
            <div className="space-y-2">
              <Heading>{`Request body${op.requestBody.required ? " (required)" : ""}`}</Heading>
              {requestExample !== undefined ? (
                <JsonBlock value={requestExample} label="Request example" />
              ) : null}
              <BodyFields content={op.requestBody.content} />
            </div>
          ) : null}
          <div className="space-y-2">
            <Heading>Responses</Heading>
            <ul className="space-y-2">
              {Object.entries(op.responses).map(([status, response]) => {
                const example = response.content?.["application/json"]?.example;
                return (
                  <li key={status} data-testid={`response-${status}`} className="space-y-1">
                    <p>
                      <Badge tone={statusTone(status)}>{status}</Badge>{" "}
                      <span className="text-slate-700">
                        <InlineCode text={response.description} />
                      </span>
                    </p>
                    {example !== undefined ? (
                      <details className="pl-10" open={status.startsWith("2")}>
                        <summary className="cursor-pointer text-xs text-slate-500">Example</summary>
                        <JsonBlock value={example} label={`Response ${status} example`} />
                      </details>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </div>
        </div>
      </Card>
    </div>
  );
}
