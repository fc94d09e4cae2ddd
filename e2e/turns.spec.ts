import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { formatUnit, formatWeighted } from "../lib/format";
import { joyScore, round } from "../lib/reward";

/** docs/spec/turn-score.md § ETHICAL: mutations not acknowledged score 0.5. */
const ETHICAL_UNACKNOWLEDGED = 0.5;
import { adminPage, createIngestKey, snap } from "./state";

// One story on one server: an agent reports a turn through the API with a key made
// in the UI; the turn appears live on /turns, is opened, overridden by a reviewer,
// and re-totalled after an admin changes a weight. Later steps depend on earlier ones.
test.describe.configure({ mode: "serial" });

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const SESSION = `e2e-turns-${RUN}`;
const eventId = (name: string) => `e2e-${RUN}-${name}`;
const RESPONSE = "Done!";

let apiKey = "";
let turnUrl = "";
/** The turn's weighted total as the Stop event's answer reported it, then after each change. */
let weighted = 0;

function postEvent(
  request: APIRequestContext,
  event: Record<string, unknown>,
  key: string | null = apiKey,
) {
  return request.post("/api/v1/events", { data: event, headers: key ? { "x-api-key": key } : {} });
}

const cell = (page: Page, principle: string, column: number) =>
  page.getByTestId(`score-${principle}`).getByRole("cell").nth(column);
const ENGINE = 2;
const EFFECTIVE = 3;
const WEIGHT = 4;

test("before any turn, the Overview says how agents report turns", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Overview");
  if ((await page.getByTestId("total-turns").textContent()) === "0") {
    await expect(page.getByText("charter hooks install", { exact: true })).toBeVisible();
    await expect(page.getByText("POST /api/v1/events", { exact: true })).toBeVisible();
    await expect(page.getByTestId("demo-slot")).toBeAttached();
  }
  await snap(page, testInfo, "overview-empty");
  await page.context().close();
});

test("a key with the ingest scope reports events; an invalid event gets 422, no key 401", async ({
  browser,
  request,
}) => {
  apiKey = await createIngestKey(browser, `e2e-turns-${RUN}`);
  expect(apiKey).toMatch(/^chk_/);

  const prompt = {
    id: eventId("prompt"),
    type: "UserPromptSubmit",
    session_id: SESSION,
    prompt: "Fix the failing parser test and update the changelog.",
  };
  const anonymous = await postEvent(request, prompt, null);
  expect(anonymous.status()).toBe(401);
  expect((await anonymous.json()).error.code).toBe("unauthorized");

  const invalid = await postEvent(request, {
    id: eventId("bad"),
    type: "Stop",
    session_id: SESSION,
    response: 42,
  });
  expect(invalid.status()).toBe(422);
  const body = await invalid.json();
  expect(body.error.code).toBe("invalid_input");
  expect(body.error.details.length).toBeGreaterThan(0);

  const accepted = await postEvent(request, prompt);
  expect(accepted.status()).toBe(200);
  expect((await accepted.json()).results[0]).toMatchObject({ status: "accepted", turn: 1 });

  const bash = await postEvent(request, {
    id: eventId("bash"),
    type: "PostToolUse",
    session_id: SESSION,
    tool_name: "Bash",
    tool_input: { command: "npm test" },
    tool_response: "npm test\nExit code: 1",
  });
  expect(bash.status()).toBe(200);
  const edit = await postEvent(request, {
    id: eventId("edit"),
    type: "PostToolUse",
    session_id: SESSION,
    tool_name: "Edit",
    tool_input: { file_path: "CHANGELOG.md" },
    tool_response: "The file CHANGELOG.md has been updated.",
  });
  expect(edit.status()).toBe(200);
});

test("the scored turn appears on /turns without a reload", async ({
  browser,
  request,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto("/turns");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Turns");
  const row = page.getByTestId(`turn-${SESSION}-1`);
  // Not scored until it stops.
  await expect(row).toHaveCount(0);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

  const stop = await postEvent(request, {
    id: eventId("stop"),
    type: "Stop",
    session_id: SESSION,
    response: RESPONSE,
  });
  expect(stop.status()).toBe(200);
  weighted = (await stop.json()).results[0].score.weighted_total;

  await expect(row).toBeVisible({ timeout: 20_000 });
  expect(
    await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
  ).toBe(true);
  await expect(row).toContainText(`ethical ${ETHICAL_UNACKNOWLEDGED}`);
  await expect(row).not.toContainText("overridden");
  await snap(page, testInfo, "turns");

  await row.getByRole("link", { name: `Turn 1 of session ${SESSION}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Turn 1");
  turnUrl = new URL(page.url()).pathname;
  expect(turnUrl).toMatch(/^\/turns\/[^/]+$/);
  await page.context().close();
});

test("the turn page shows the chart, the scores, the reasoning, the response and the tools", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto(turnUrl);
  await expect(page.getByTestId("score-chart").locator("svg.recharts-surface")).toBeVisible();
  await expect(cell(page, "ethical", ENGINE)).toHaveText(formatUnit(ETHICAL_UNACKNOWLEDGED));
  await expect(cell(page, "joy_inducing", ENGINE)).toHaveText(formatUnit(joyScore(RESPONSE)));
  await expect(page.getByTestId("reasoning")).toContainText(
    `ethical ${ETHICAL_UNACKNOWLEDGED}: files were changed but the failed tools were not acknowledged`,
  );
  await expect(page.getByTestId("turn-prompt")).toHaveText(
    "Fix the failing parser test and update the changelog.",
  );
  await expect(page.getByTestId("turn-response")).toHaveText(RESPONSE);
  await expect(page.getByTestId(`tool-${eventId("bash")}`)).toContainText("failed");
  await expect(page.getByTestId(`tool-${eventId("edit")}`)).toContainText("succeeded");
  await expect(page.getByTestId("turn-totals")).toHaveAttribute(
    "data-weighted-total",
    String(weighted),
  );
  await snap(page, testInfo, "turn");
  await page.context().close();
});

test("an editor's override of tasteful changes the totals", async ({ browser }, testInfo) => {
  const page = await adminPage(browser);
  await page.goto(turnUrl);
  const engine = Number(await cell(page, "tasteful", ENGINE).textContent());
  const weight = Number(await cell(page, "tasteful", WEIGHT).textContent());
  const expected = round(weighted - (engine - 0.2) * weight);

  const form = page.getByRole("form", { name: "Override a score" });
  await form.getByLabel("Principle").selectOption("tasteful");
  await form.getByLabel("Score").fill("0.2");
  await form.getByLabel("Reason").fill("Too terse: it never said the test still fails.");
  await form.getByRole("button", { name: "Override" }).click();
  await expect(page.getByTestId("override-result")).toContainText(`weighted ${expected}`);
  await expect(page.getByTestId("turn-totals")).toHaveAttribute(
    "data-weighted-total",
    String(expected),
  );
  await expect(cell(page, "tasteful", EFFECTIVE)).toContainText("0.2");
  await expect(page.getByTestId("override-tasteful")).toContainText(
    "Too terse: it never said the test still fails.",
  );
  await expect(page.getByTestId("override-tasteful")).toContainText("admin@charter.local");
  weighted = expected;
  await snap(page, testInfo, "turn-overridden");

  await page.goto(`/turns?session=${encodeURIComponent(SESSION)}`);
  await expect(page.getByTestId(`turn-${SESSION}-1`)).toContainText("overridden");
  await page.context().close();
});

test("an admin's new weight for ethical is recomputed into the turn's total", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto("/weights");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Weights");
  const input = page.getByLabel("Weight of ethical");
  const before = Number(await input.inputValue());
  const after = before + 1;
  await input.fill(String(after));
  await page.getByLabel("Message").fill(`e2e ${RUN}: safety weighs more`);
  await page.getByRole("button", { name: "Save weights" }).click();
  await expect(page.getByTestId("recompute-status")).toContainText("done", { timeout: 30_000 });
  await expect(page.getByRole("progressbar", { name: "Recompute progress" })).toHaveAttribute(
    "aria-valuenow",
    "100",
  );
  await expect(page.getByText(`e2e ${RUN}: safety weighs more`)).toBeVisible();
  await snap(page, testInfo, "weights");

  await page.goto(turnUrl);
  const ethical = Number(await cell(page, "ethical", EFFECTIVE).textContent());
  const expected = round(weighted + ethical * (after - before));
  await expect(cell(page, "ethical", WEIGHT)).toHaveText(formatWeighted(after));
  await expect(page.getByTestId("turn-totals")).toHaveAttribute(
    "data-weighted-total",
    String(expected),
  );
  await snap(page, testInfo, "turn-reweighted");
  await page.context().close();
});

test("an unknown turn is a 404", async ({ browser }) => {
  const page = await adminPage(browser);
  const response = await page.goto("/turns/no-such-turn");
  expect(response?.status()).toBe(404);
  await page.context().close();
});

test("the Overview charts the scores and the API page documents the events", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto("/");
  await expect(page.getByTestId("total-turns")).not.toHaveText("0");
  await expect(page.getByTestId("trend-chart").locator("svg.recharts-surface")).toBeVisible();
  await expect(
    page.getByTestId("distribution-chart").locator("svg.recharts-surface"),
  ).toBeVisible();
  await expect(page.getByTestId("weakest-ethical")).toContainText(
    "Does this respect human agency?",
  );
  await snap(page, testInfo, "overview");

  await page.goto("/api-docs");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API");
  await expect(page.getByTestId("operation-post-/api/v1/events")).toContainText(
    "Report agent events",
  );
  await expect(page.getByTestId("curl-example")).toContainText("x-api-key");
  await expect(page.getByRole("link", { name: "/api/v1/openapi.json" })).toHaveAttribute(
    "href",
    "/api/v1/openapi.json",
  );
  const spec = await page.request.get("/api/v1/openapi.json");
  expect(spec.status()).toBe(200);
  expect((await spec.json()).paths).toHaveProperty("/api/v1/events");
  await snap(page, testInfo, "api");
  await page.context().close();
});
