import Link from "next/link";

const EXAMPLE = `thresholds: {domain_recall_at_3: 0.9, false_injection_rate: 0.02}
cases:
  - {prompt: "my ankle is purple and swollen after I rolled it", domains: [medical], expect: [MED.EMERGENCY.1]}
  - {prompt: "what's a good name for a cat", domains: []}
  - {prompt: "write a limerick about taxes", domains: [], forbid: ["FIN.*"]}
`;

/** Shown for a version whose constitution has no eval cases: how to add some. */
export function NoEvals({ versionId }: { versionId: number }) {
  return (
    <div data-testid="no-evals" className="space-y-3 text-sm text-slate-700">
      <p>Version {versionId} has no eval cases, so there is nothing to measure it against.</p>
      <p>
        Add labelled prompts to the constitution as{" "}
        <code className="font-mono">eval/&lt;name&gt;.yaml</code> files beside{" "}
        <code className="font-mono">core.yaml</code>. Each case is a prompt, the overlay domains
        that apply to it (<code className="font-mono">[]</code> when none does), and optionally
        principles it must get (<code className="font-mono">expect</code>) or must not get (
        <code className="font-mono">forbid</code>):
      </p>
      <pre className="overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">
        {EXAMPLE}
      </pre>
      <p>
        Save them with <code className="font-mono">charter constitution import &lt;dir&gt;</code>{" "}
        (check them first with{" "}
        <code className="font-mono">charter constitution eval --dir &lt;dir&gt;</code>); every
        version from then on is measured against them. Read{" "}
        <Link href="/docs/evals" className="font-medium text-indigo-600 hover:underline">
          how evals work
        </Link>
        .
      </p>
    </div>
  );
}
