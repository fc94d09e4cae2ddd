import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { analyzeUserFeedback } from "../lib/credit";
import { formatUnit } from "../lib/format";
import { adminPage, createIngestKey, snap } from "./state";

// One session, end to end: an agent reports two prompts, a failed Bash, an Edit and a
// SessionEnd with a key made in the UI; the Session page shows the outcome and the
// credits, and the Principles page counts one more use. Later steps depend on earlier ones.
test.describe.configure({ mode: "serial" });

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const SESSION = `e2e-credit-${RUN}`;
const eventId = (name: string) => `e2e-${RUN}-${name}`;
const PROMPTS = [
  "fix the failing pagination test in the orders module",
  "perfect, thanks!",
] as const;

let apiKey = "";
/** A principle injected at the first prompt, so active for both tool calls. */
let principleId = "";
let usesBefore = 0;
let outcome: { status: string; score: number } = { status: "", score: 0 };

async function postEvent(request: APIRequestContext, event: Record<string, unknown>) {
  const res = await request.post("/api/v1/events", {
    data: { session_id: SESSION, ...event },
    headers: { "x-api-key": apiKey },
  });
  expect(res.status(), `${String(event.type)} ${String(event.id)}`).toBe(200);
  return (await res.json()) as { results: Record<string, unknown>[] };
}

async function useCount(page: Page, id: string): Promise<number> {
  await page.goto("/principles");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Principles");
  const row = page.getByTestId(`trust-${id}`);
  await expect(row).toBeAttached();
  return Number(await row.getAttribute("data-use-count"));
}

test("a key with the ingest scope is made in the UI", async ({ browser }) => {
  apiKey = await createIngestKey(browser, `e2e-credit-${RUN}`);
  expect(apiKey).toMatch(/^chk_/);
});

test("the agent reports two prompts, a failed Bash and an Edit", async ({ request }) => {
  const first = await postEvent(request, {
    id: eventId("prompt-1"),
    type: "UserPromptSubmit",
    prompt: PROMPTS[0],
  });
  const principles = first.results[0]?.principles as { id: string }[] | undefined;
  expect(
    principles?.length ?? 0,
    "the first prompt retrieved at least one principle",
  ).toBeGreaterThan(0);
  principleId = principles![0]!.id;

  await postEvent(request, {
    id: eventId("bash"),
    type: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "npm test -- orders" },
    tool_response: "1 failing\nExit code: 1",
  });
  await postEvent(request, {
    id: eventId("edit"),
    type: "PostToolUse",
    tool_name: "Edit",
    tool_input: { file_path: "src/paginate.ts" },
    tool_response: "The file src/paginate.ts has been updated.",
  });
  await postEvent(request, {
    id: eventId("stop-1"),
    type: "Stop",
    response: "Fixed the off-by-one; the tests pass now.",
  });
  await postEvent(request, {
    id: eventId("prompt-2"),
    type: "UserPromptSubmit",
    prompt: PROMPTS[1],
  });
  await postEvent(request, { id: eventId("stop-2"), type: "Stop", response: "Glad it works." });
});

test("before SessionEnd the session is open and the principle's uses are noted", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto(`/sessions/${encodeURIComponent(SESSION)}`);
  await expect(page.getByTestId("session-outcome")).toHaveAttribute("data-status", "open");
  await expect(page.getByTestId("session-outcome")).toContainText("SessionEnd");
  await snap(page, testInfo, "session-open");

  usesBefore = await useCount(page, principleId);
  await snap(page, testInfo, "principles-before");
  await page.context().close();
});

test("SessionEnd credits the session", async ({ request }) => {
  const end = await postEvent(request, {
    id: eventId("end"),
    type: "SessionEnd",
    reason: "prompt_input_exit",
  });
  outcome = end.results[0]?.outcome as typeof outcome;
  expect(["success", "partial", "failure"]).toContain(outcome.status);
});

test("the Session page shows the outcome, the feedback, the tools and the credits", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto("/sessions");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sessions");
  const row = page.getByTestId(`session-${SESSION}`);
  await expect(row).toContainText(outcome.status);
  await expect(row).toContainText(formatUnit(outcome.score));
  await snap(page, testInfo, "sessions");

  await row.getByRole("link", { name: `Session ${SESSION}` }).click();
  await expect(page.getByTestId("session-id")).toHaveText(SESSION);
  const summary = page.getByTestId("session-outcome");
  await expect(summary).toHaveAttribute("data-status", outcome.status);
  await expect(summary).toHaveAttribute("data-score", String(outcome.score));
  await expect(page.getByTestId("outcome-score")).toHaveText(formatUnit(outcome.score));
  await expect(page.getByTestId("prompt-2")).toContainText(PROMPTS[1]);
  await expect(page.getByTestId("prompt-2").getByTestId("feedback")).toContainText(
    "explicit_positive",
  );
  await expect(page.getByTestId(`tool-${eventId("bash")}`)).toContainText("Bash");
  await expect(page.getByTestId(`tool-${eventId("bash")}`)).toContainText("failed");
  await expect(page.getByTestId(`tool-${eventId("edit")}`)).toContainText("Edit");
  await expect(page.getByTestId(`tool-${eventId("edit")}`)).toContainText("succeeded");

  // The reasoning is the engine's: sentiment averaged over both prompts' feedback.
  const feedback = [
    analyzeUserFeedback(PROMPTS[0], [], []),
    analyzeUserFeedback(PROMPTS[1], [PROMPTS[0]], ["bash", "edit"]),
  ];
  const sentiment = feedback.reduce((sum, f) => sum + f.sentiment, 0) / feedback.length;
  await expect(page.getByTestId(`credit-${principleId}`)).toContainText(
    `tool_success=50%, user_sentiment=${(sentiment * 100).toFixed(0)}%`,
  );
  await snap(page, testInfo, "session");
  await page.context().close();
});

test("the Principles page counts one more use, and the principle's page lists the credit", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  expect(await useCount(page, principleId)).toBe(usesBefore + 1);
  await page.getByLabel("Search principles").fill(principleId);
  await expect(page.getByTestId(`trust-${principleId}`).getByTestId("use-count")).toHaveText(
    String(usesBefore + 1),
  );
  await snap(page, testInfo, "principles-after");

  await page.getByTestId(`trust-${principleId}`).getByRole("link", { name: principleId }).click();
  await expect(page.getByTestId("principle-id")).toHaveText(principleId);
  await expect(page.getByTestId("trust-numbers")).toHaveAttribute(
    "data-use-count",
    String(usesBefore + 1),
  );
  await expect(page.getByTestId(`usage-${SESSION}`)).toContainText("tool_success=50%");
  await expect(
    page.getByTestId("trust-chart").locator("svg.recharts-surface").first(),
  ).toBeVisible();
  await snap(page, testInfo, "principle");
  await page.context().close();
});

test("an unknown session or principle is a 404", async ({ browser }) => {
  const page = await adminPage(browser);
  expect((await page.goto("/sessions/no-such-session"))?.status()).toBe(404);
  expect((await page.goto("/principles/no-such-principle"))?.status()).toBe(404);
  await page.context().close();
});

test("a prompt replayed from a spool credits nothing, and its pages say what would have been injected", async ({
  browser,
  request,
}, testInfo) => {
  const session = `${SESSION}-spooled`;
  const post = (event: Record<string, unknown>) =>
    request.post("/api/v1/events", {
      data: { session_id: session, ...event },
      headers: { "x-api-key": apiKey },
    });
  const prompt = await post({
    id: eventId("spooled-prompt"),
    type: "UserPromptSubmit",
    prompt: PROMPTS[0],
    context_delivered: false,
  });
  expect(prompt.status()).toBe(200);
  expect((await prompt.json()).results[0]).toMatchObject({
    principles: [],
    additional_context: "",
  });
  expect(
    (
      await post({
        id: eventId("spooled-stop"),
        type: "Stop",
        response: "Fixed the off-by-one; the tests pass now.",
      })
    ).status(),
  ).toBe(200);
  const end = await post({
    id: eventId("spooled-end"),
    type: "SessionEnd",
    reason: "prompt_input_exit",
  });
  expect((await end.json()).results[0].outcome).toBeDefined();

  const page = await adminPage(browser);
  expect(await useCount(page, principleId)).toBe(usesBefore + 1);
  await page.goto(`/sessions/${encodeURIComponent(session)}`);
  await expect(page.getByText("spooled: nothing injected")).toBeVisible();
  await expect(page.getByText("would have injected")).toBeVisible();
  await snap(page, testInfo, "session-spooled");
  await page.context().close();
});
