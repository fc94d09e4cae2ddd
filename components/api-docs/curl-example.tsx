/** A copy-paste example: one UserPromptSubmit event posted with an API key. */
export function CurlExample({ baseUrl }: { baseUrl: string }) {
  const event = {
    id: "evt-0001-example-prompt",
    type: "UserPromptSubmit",
    session_id: "example-session-1",
    prompt: "Add a retry to the upload script",
  };
  const command = [
    `curl -sS -X POST ${baseUrl}/api/v1/events \\`,
    `  -H "content-type: application/json" \\`,
    `  -H "x-api-key: $CHARTER_API_KEY" \\`,
    `  -d '${JSON.stringify(event)}'`,
  ].join("\n");
  return (
    <pre
      data-testid="curl-example"
      className="overflow-auto whitespace-pre-wrap break-words rounded bg-slate-900 p-3 font-mono text-xs text-slate-100"
    >
      {command}
    </pre>
  );
}
