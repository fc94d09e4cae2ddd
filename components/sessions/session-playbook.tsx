import Link from "next/link";
import { Badge, Card } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { formatPlaybook, type PlaybookEntry } from "@/lib/playbook";
import { ReflectButton } from "./reflect-button";

type Reflection = { status: string; result: unknown; error: string | null; createdAt: Date } | null;

/** The key points given to the agent in this session, and the reflector's last result for it. */
export function SessionPlaybook(props: {
  sessionId: string;
  injected: PlaybookEntry[];
  reflection: Reflection;
  canReflect: boolean;
  llmConfigured: boolean;
  noLlmMessage: string;
}) {
  const result = props.reflection?.result as {
    extraction?: { new_key_points: string[]; evaluations: { name: string; rating: string }[] };
    added?: string[];
    proposed?: string[];
    warnings?: string[];
  } | null;
  return (
    <Card title="Playbook">
      <div className="space-y-4 text-sm">
        <div>
          <h3 className="font-medium text-slate-800">
            Key points given to the agent ({props.injected.length})
          </h3>
          {props.injected.length ? (
            <pre className="mt-1 whitespace-pre-wrap rounded bg-slate-50 p-2 font-mono text-xs">
              {formatPlaybook(props.injected)}
            </pre>
          ) : (
            <p className="text-slate-500">None.</p>
          )}
        </div>
        <div>
          <h3 className="font-medium text-slate-800">Last reflection</h3>
          {!props.reflection ? (
            <p className="text-slate-500">The reflector has not run on this session.</p>
          ) : (
            <div className="space-y-1" data-testid="last-reflection">
              <p>
                <Badge tone={props.reflection.status === "applied" ? "green" : "red"}>
                  {props.reflection.status}
                </Badge>{" "}
                <Time value={props.reflection.createdAt} />
              </p>
              {props.reflection.error ? (
                <p className="text-red-700">{props.reflection.error}</p>
              ) : null}
              {result?.extraction ? (
                <ul className="list-disc pl-5 text-slate-700">
                  {result.extraction.evaluations.map((e, i) => (
                    <li key={`${e.name}-${i}`}>
                      {e.name}: {e.rating}
                    </li>
                  ))}
                  {result.extraction.new_key_points.map((t, i) => (
                    <li key={`new-${i}`}>new: {t}</li>
                  ))}
                </ul>
              ) : null}
              {result?.warnings?.length ? (
                <div data-testid="reflection-warnings" className="text-amber-800">
                  <p>
                    Skipped{" "}
                    {result.warnings.length === 1 ? "1 item" : `${result.warnings.length} items`}:
                  </p>
                  <ul className="list-disc pl-5 font-mono text-xs">
                    {result.warnings.map((w, i) => (
                      <li key={i}>{w}</li>
                    ))}
                  </ul>
                </div>
              ) : null}
              <Link className="text-indigo-600 hover:underline" href="/playbook">
                Open the playbook
              </Link>
            </div>
          )}
        </div>
        {props.canReflect ? (
          <ReflectButton
            sessionId={props.sessionId}
            llmConfigured={props.llmConfigured}
            noLlmMessage={props.noLlmMessage}
          />
        ) : null}
      </div>
    </Card>
  );
}
