import { expect, test, type Page } from "@playwright/test";
import { adminPage, createIngestKey, snap } from "./state";

// One story: an agent's turn is reviewed; the reviewer marks a principle that should have
// applied, sees the impact preview, confirms that the prompt may be stored and accepts the
// label; the Evals page lists the new case with its provenance; then the label is removed.
test.describe.configure({ mode: "serial" });

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const SESSION = `e2e-labels-${RUN}`;
const PROMPT = "upgrade lodash to the latest version and check that the checkout still works";
const PRINCIPLE = "CODE.TESTS.1";

let turnUrl = "";

const labelCard = (page: Page) => page.getByRole("form", { name: "Label for the eval set" });
const reviewedRow = (page: Page) => page.getByTestId("reviewed-label").filter({ hasText: PROMPT });

test("an agent reports a turn", async ({ browser, request }) => {
  const apiKey = await createIngestKey(browser, `e2e-labels-${RUN}`);
  for (const event of [
    { id: `${SESSION}-prompt`, type: "UserPromptSubmit", prompt: PROMPT },
    { id: `${SESSION}-stop`, type: "Stop", response: "Upgraded lodash; the checkout works." },
  ]) {
    const res = await request.post("/api/v1/events", {
      data: { ...event, session_id: SESSION },
      headers: { "x-api-key": apiKey },
    });
    expect(res.status()).toBe(200);
  }
});

test("a reviewer marks a principle that should have applied, previews its impact, confirms and accepts", async ({
  browser,
}, testInfo) => {
  // The preview runs the eval set twice and fits the draft's learned weights: slow on a busy machine.
  test.setTimeout(180_000);
  const page = await adminPage(browser);
  await page.goto(`/turns?session=${encodeURIComponent(SESSION)}`);
  await page.getByRole("link", { name: `Turn 1 of session ${SESSION}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Turn 1");
  turnUrl = new URL(page.url()).pathname;

  await page.getByRole("button", { name: "Label for the eval set" }).click();
  const form = labelCard(page);
  await form.getByRole("radio", { name: "A principle should have applied" }).check();
  await form.getByLabel("Find a principle").fill("code tests");
  await form.getByLabel("Principle that should have applied").selectOption(PRINCIPLE);
  // The domains are prefilled from what retrieval detects for the prompt; editable.
  await expect(form.getByTestId("label-domains-note")).toContainText("Prefilled");
  await form.getByRole("checkbox", { name: "coding" }).check();
  await expect(form.getByRole("textbox", { name: /^Prompt/ })).toHaveValue(PROMPT);

  await form.getByRole("button", { name: "Preview impact" }).click();
  const preview = form.getByTestId("label-preview");
  await expect(preview.getByTestId("label-case")).toContainText(
    "A new case in eval/reviewed.yaml",
    { timeout: 120_000 },
  );
  await expect(preview.getByTestId("label-case")).toContainText(PRINCIPLE);
  await expect(preview.getByTestId("impact-thresholds")).toBeVisible();
  await expect(preview.getByTestId("delta-principle_hit_rate")).toBeVisible();
  await snap(page, testInfo, "label-preview");

  // Not stored before the reviewer confirms the prompt may be stored.
  await form.getByRole("button", { name: "Accept label" }).click();
  await expect(form.getByRole("alert").filter({ hasText: "Tick the box" })).toBeVisible();
  await form.getByRole("checkbox", { name: /may be stored in the constitution/ }).check();
  await form.getByRole("button", { name: "Accept label" }).click();
  await expect(form.getByRole("status").filter({ hasText: /Saved as version \d+/ })).toBeVisible();
  await page.context().close();
});

test("the Evals page lists the new case with its provenance; removing it makes a version without it", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto("/constitution/evals");
  const row = reviewedRow(page);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(PRINCIPLE);
  await expect(row).toContainText("coding");
  await expect(row).toContainText("admin@charter.local");
  await expect(row.getByRole("link").first()).toHaveAttribute("href", turnUrl);
  await expect(row.getByRole("link").nth(1)).toHaveAttribute(
    "href",
    `/sessions/${encodeURIComponent(SESSION)}`,
  );
  await snap(page, testInfo, "reviewed-labels");

  await row.getByRole("button", { name: /^Remove label/ }).click();
  await row.getByRole("button", { name: "Remove the case" }).click();
  await expect(reviewedRow(page)).toHaveCount(0);
  await page.goto("/constitution/history");
  await expect(page.getByText("Removed a label from review").first()).toBeVisible();
  await page.context().close();
});

test("a session's prompts and the Retrieval page offer the same label form", async ({
  browser,
}) => {
  const page = await adminPage(browser);
  await page.goto(`/sessions/${encodeURIComponent(SESSION)}`);
  await expect(page.getByLabel("Prompt to label")).toContainText(`Turn 1: ${PROMPT.slice(0, 30)}`);
  await page.getByRole("button", { name: "Label for the eval set" }).click();
  await expect(labelCard(page).getByRole("textbox", { name: /^Prompt/ })).toHaveValue(PROMPT);

  await page.goto(`/retrieval?prompt=${encodeURIComponent(PROMPT)}`);
  await page.getByRole("button", { name: "Label for the eval set" }).click();
  const form = labelCard(page);
  await expect(form.getByRole("textbox", { name: /^Prompt/ })).toHaveValue(PROMPT);
  // The playground's own result prefills the domains and the principles it injected.
  await form.getByRole("radio", { name: "An injected principle did not apply" }).check();
  await expect(form.getByLabel("Principle that did not apply")).toContainText("CODE.");
  await page.context().close();
});
