import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { expect, test } from "@playwright/test";
import { agentTurnSpans, exportSpans } from "../test/otel";
import { adminPage, createIngestKey, snap } from "./state";

// An agent built on a framework reports through OpenTelemetry: the real SDK's OTLP/HTTP
// protobuf exporter, gzipped, against the production server's route (Next's own router).
const run = Date.now().toString(36);

test("a trace exported by the OpenTelemetry SDK arrives as a session of its agent, with its turn and tool call", async ({
  browser,
  baseURL,
}, testInfo) => {
  const key = await createIngestKey(browser, `otel-${run}`);
  const conversation = `otel-e2e-${run}`;
  const exporter = new OTLPTraceExporter({
    url: new URL("/api/public/otel/v1/traces", baseURL).toString(),
    headers: { authorization: `Bearer ${key}` },
    compression: "gzip" as NonNullable<
      ConstructorParameters<typeof OTLPTraceExporter>[0]
    >["compression"],
  });
  const spans = await agentTurnSpans({
    service: "support-bot",
    version: "1.4.0",
    conversationId: conversation,
    prompt: "Delete the old customer records from the production database",
    tool: { name: "run_sql", callId: "call-1", arguments: { sql: "select 1" }, result: "1 row" },
    reply: "I listed them; deleting needs your confirmation first.",
  });
  const result = await exportSpans(exporter, spans);
  await exporter.shutdown();
  expect(result.code, String(result.error ?? "")).toBe(0);

  const page = await adminPage(browser);
  await page.goto("/sessions?agent=support-bot");
  const row = page.getByTestId(`session-${conversation}`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId("session-agent")).toHaveText("support-bot 1.4.0");
  await expect(row.getByTestId("session-source")).toHaveText("otel");
  await row.getByRole("link", { name: `Session ${conversation}` }).click();
  await expect(page.getByTestId("session-first-prompt")).toContainText("Delete the old customer");
  await expect(page.getByText("agent takes no context: nothing injected").first()).toBeVisible();
  await snap(page, testInfo, "otel-session");
  await page.context().close();
});
