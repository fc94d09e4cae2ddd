import { formatCount } from "@/lib/format";
import { isLong, toolValueView } from "./tool-value";

const preClass =
  "max-h-64 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-2 font-mono text-xs text-slate-700";

/** Text in a pre block; a long one folded behind a summary of its first line and size. */
function Folded({ text }: { text: string }) {
  if (!isLong(text)) return <pre className={preClass}>{text}</pre>;
  const first = text.split("\n", 1)[0]!.slice(0, 80);
  return (
    <details>
      <summary className="cursor-pointer font-mono text-xs text-slate-600">
        {first}…{" "}
        <span className="font-sans text-slate-400">({formatCount(text.length)} characters)</span>
      </summary>
      <pre className={`mt-1 ${preClass}`}>{text}</pre>
    </details>
  );
}

/** A tool's input or output, readable: key/value rows for an object, pretty-printed JSON, or text; long values folded. Never rendered as HTML. */
export function ToolValue({ value, empty }: { value: unknown; empty: string }) {
  const view = toolValueView(value);
  switch (view.kind) {
    case "empty":
      return <p className="text-xs text-slate-400">{empty}</p>;
    case "text":
    case "json":
      return <Folded text={view.text} />;
    case "rows":
      return (
        <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
          {view.rows.map((row) => (
            <div key={row.key} className="contents">
              <dt className="pt-2 font-mono text-slate-500">{row.key}</dt>
              <dd className="min-w-0">
                <Folded text={row.text} />
              </dd>
            </div>
          ))}
        </dl>
      );
  }
}

/** A tool call's input and output, collapsed behind a summary line. */
export function ToolCallDetails({ input, output }: { input: unknown; output: string | null }) {
  return (
    <details>
      <summary className="cursor-pointer text-xs text-slate-600">input and output</summary>
      <div className="mt-2 space-y-3">
        <section>
          <h4 className="mb-1 text-[11px] font-medium uppercase tracking-wide text-slate-500">
            Input
          </h4>
          <ToolValue value={input} empty="no input" />
        </section>
        <section>
          <h4 className="mb-1 text-[11px] font-medium uppercase tracking-wide text-slate-500">
            Output
          </h4>
          <ToolValue value={output} empty="no output" />
        </section>
      </div>
    </details>
  );
}
