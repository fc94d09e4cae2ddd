import { Badge, Card } from "@/components/ui/primitives";
import { describeAuth } from "./auth";
import { JsonBlock } from "./json-block";
import type { MediaTypes, OpenApiDoc, Operation } from "./types";

const METHOD_TONE = { get: "green", post: "indigo", put: "amber", patch: "amber", delete: "red" } as const;

function Schemas({ content, what }: { content: MediaTypes; what: string }) {
  return (
    <>
      {Object.entries(content).map(([type, media]) => (
        <div key={type} className="space-y-1">
          <p className="text-xs text-slate-500">{type}</p>
          <JsonBlock value={media.schema ?? {}} label={`${what} schema (${type})`} />
        </div>
      ))}
    </>
  );
}

/** One path and method of the API: what it does, how it authenticates, what it takes and answers. */
export function OperationCard({ path, method, op, doc }: { path: string; method: keyof typeof METHOD_TONE; op: Operation; doc: OpenApiDoc }) {
  return (
    <div data-testid={`operation-${method}-${path}`}>
      <Card
        title={`${method.toUpperCase()} ${path}`}
        actions={<Badge tone={METHOD_TONE[method]}>{method.toUpperCase()}</Badge>}
      >
        <div className="space-y-4 text-sm">
          {op.summary ? <p className="font-medium text-slate-900">{op.summary}</p> : null}
          {op.description ? <p className="text-slate-700">{op.description}</p> : null}
          <p>
            <span className="font-medium text-slate-800">Auth: </span>
            <span className="text-slate-700">{describeAuth(op, doc)}</span>
          </p>
          {op.requestBody ? (
            <div className="space-y-2">
              <h3 className="font-medium text-slate-800">Request body{op.requestBody.required ? " (required)" : ""}</h3>
              <Schemas content={op.requestBody.content} what="Request body" />
            </div>
          ) : null}
          <div className="space-y-2">
            <h3 className="font-medium text-slate-800">Responses</h3>
            <ul className="space-y-2">
              {Object.entries(op.responses).map(([status, response]) => (
                <li key={status} data-testid={`response-${status}`}>
                  <details>
                    <summary className="cursor-pointer">
                      <Badge tone={status.startsWith("2") ? "green" : "red"}>{status}</Badge> <span className="text-slate-700">{response.description}</span>
                    </summary>
                    <div className="mt-2">{response.content ? <Schemas content={response.content} what={`Response ${status}`} /> : <p className="text-xs text-slate-500">No body.</p>}</div>
                  </details>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </Card>
    </div>
  );
}
