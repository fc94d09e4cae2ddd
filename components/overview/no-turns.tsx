import Link from "next/link";
import { Card } from "@/components/ui/primitives";
import { LoadDemoButton } from "./load-demo-button";

const link = "font-medium text-indigo-600 hover:underline";

/** The Overview before any turn is scored: how agents report turns. */
export function NoTurns({ canLoadDemo }: { canLoadDemo: boolean }) {
  return (
    <Card title="No turns scored yet">
      <div className="space-y-3 text-sm text-slate-700">
        <p>Charter scores a turn when an agent reports it. Two ways to report:</p>
        <ul className="list-disc space-y-2 pl-5">
          <li>
            <strong>Claude Code:</strong> run{" "}
            <code className="rounded bg-slate-100 px-1">charter hooks install</code> on the
            agent&apos;s machine with an API key that has the <code>ingest</code> scope (make one on
            the{" "}
            <Link href="/api-keys" className={link}>
              API keys
            </Link>{" "}
            page); its hooks then report every prompt, tool call and stop.
          </li>
          <li>
            <strong>Any agent:</strong>{" "}
            <code className="rounded bg-slate-100 px-1">POST /api/v1/events</code> with the key in
            the <code>x-api-key</code> header. See the{" "}
            <Link href="/api-docs" className={link}>
              API
            </Link>{" "}
            page for the events and a curl example.
          </li>
        </ul>
        <p>
          A turn is scored when its Stop event arrives.{" "}
          <Link href="/docs/turns" className={link}>
            How turns are scored
          </Link>
        </p>
        <div data-testid="demo-slot">{canLoadDemo ? <LoadDemoButton /> : null}</div>
      </div>
    </Card>
  );
}
