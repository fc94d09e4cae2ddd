import { VERSION } from "@/lib/version";

/*
 * The examples of the OpenAPI document (./api-routes.ts). Each is checked against its
 * route's schema by lib/http/openapi.test.ts, so an example never drifts from what the
 * route takes or answers.
 */

export const EXAMPLE_EVENT = {
  id: "evt-0001-example-prompt",
  type: "UserPromptSubmit",
  session_id: "example-session-1",
  prompt: "Add a retry to the upload script",
};

export const EXAMPLE_EVENTS_ANSWER = {
  accepted: 1,
  duplicates: 0,
  results: [
    {
      id: "evt-0001-example-prompt",
      status: "accepted",
      turn: 1,
      principles: [
        { id: "composable", title: "Composable", level: "soft", priority: 50, confidence: 0.742 },
      ],
      additional_context: "Charter principles for this prompt: ...",
    },
  ],
};

export const EXAMPLE_TURNS_PAGE = {
  rows: [
    {
      id: "01a21b94-16c5-754a-8266-1a6ec2c797b7",
      sessionId: "example-session-1",
      agent: "claude-code",
      number: 1,
      prompt: "Add a retry to the upload script",
      scoredAt: "2026-01-05T10:12:00.000Z",
      weightedTotal: 6.85,
      maxTotal: 10,
      normalizedTotal: 0.685,
      scores: {
        tasteful: 0.7,
        curated: 0.6,
        ethical: 1,
        joy_inducing: 0.5,
        composable: 0.8,
        heterarchical: 0.6,
        generative: 0.55,
      },
      overridden: false,
    },
  ],
  next: "eyJzY29yZWRBdCI6IjIwMjYtMDEtMDVUMTA6MTI6MDAuMDAwWiIsInR1cm5JZCI6IjAxYTIxYjk0LTE2YzUtNzU0YS04MjY2LTFhNmVjMmM3OTdiNyJ9",
};

export const EXAMPLE_RECOMPUTE = {
  id: 7,
  weightSetId: 3,
  status: "running",
  total: 1200,
  done: 450,
  error: null,
  finishedAt: null,
};

export const EXAMPLE_HEALTH = { status: "ok", db: "postgres", version: VERSION };
export const EXAMPLE_HEALTH_DEGRADED = { status: "degraded", db: "postgres", version: VERSION };

/** One agent turn as an OTLP/HTTP JSON export: the agent's span with the user's prompt and its reply. */
export const EXAMPLE_OTLP_EXPORT = {
  resourceSpans: [
    {
      resource: {
        attributes: [
          { key: "service.name", value: { stringValue: "support-agent" } },
          { key: "service.version", value: { stringValue: "1.4.0" } },
        ],
      },
      scopeSpans: [
        {
          scope: { name: "openai-agents" },
          spans: [
            {
              traceId: "5b8efff798038103d269b633813fc60c",
              spanId: "eee19b7ec3c1b174",
              name: "invoke_agent Support",
              kind: 1,
              startTimeUnixNano: "1767607920000000000",
              endTimeUnixNano: "1767607925000000000",
              attributes: [
                { key: "gen_ai.operation.name", value: { stringValue: "invoke_agent" } },
                { key: "gen_ai.conversation.id", value: { stringValue: "conv_5j66UpCpwteGg4" } },
                {
                  key: "gen_ai.input.messages",
                  value: {
                    stringValue:
                      '[{"role":"user","parts":[{"type":"text","content":"Add a retry to the upload script"}]}]',
                  },
                },
                {
                  key: "gen_ai.output.messages",
                  value: {
                    stringValue:
                      '[{"role":"assistant","parts":[{"type":"text","content":"Done: uploads retry three times."}],"finish_reason":"stop"}]',
                  },
                },
              ],
              status: { code: 1 },
            },
          ],
        },
      ],
    },
  ],
};

/** An export with a span that carried nothing Charter records. */
export const EXAMPLE_OTLP_ANSWER = {
  partialSuccess: {
    rejectedSpans: "0",
    errorMessage:
      "1 span ignored: no GenAI prompt, tool call or reply (gen_ai.operation.name invoke_agent, chat or execute_tool, with content) that Charter records.",
  },
};
