import { expect, test, type Page } from "@playwright/test";
import { adminPage, createIngestKey, snap } from "./state";

// One story: an agent sends a medical prompt; an editor excludes the medical overlay,
// previews the impact (lost eval hits, the agent's prompt losing its principles), saves
// anyway with a message, and the Evals page shows the drop; then the overlay is restored.
test.describe.configure({ mode: "serial" });

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const PROMPT = "I have had severe headaches for three days and now my vision is blurry";
const EDITOR = "/constitution/overlays/medical";

let apiKey = "";
let medicalIds: string[] = [];
let hitRateBefore = 0;

const saveButton = (page: Page) =>
  page
    .getByRole("form", { name: "Save overlay" })
    .getByRole("button", { name: "Save", exact: true });
const excluded = (page: Page) => page.getByRole("checkbox", { name: /^Excluded/ });

async function hitRate(page: Page): Promise<number> {
  await page.goto("/constitution/evals");
  const card = page.getByTestId("metric-principle_hit_rate");
  await expect(card).toBeVisible();
  return Number(
    /principle hit rate: ([\d.]+)/.exec((await card.getAttribute("aria-label")) ?? "")?.[1],
  );
}

test("an agent's medical prompt gets medical principles", async ({ browser, request }) => {
  apiKey = await createIngestKey(browser, `e2e-evals-${RUN}`);

  const res = await request.post("/api/v1/events", {
    data: {
      session_id: `e2e-evals-${RUN}`,
      id: `e2e-evals-${RUN}-prompt`,
      type: "UserPromptSubmit",
      prompt: PROMPT,
    },
    headers: { "x-api-key": apiKey },
  });
  expect(res.status()).toBe(200);
  const principles = ((await res.json()) as { results: { principles: { id: string }[] }[] })
    .results[0]!.principles;
  medicalIds = principles.map((p) => p.id).filter((id) => id.startsWith("MED."));
  expect(medicalIds.length, "the prompt got a medical principle").toBeGreaterThan(0);
});

test("the Evals page shows the current version's metrics against its thresholds", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  hitRateBefore = await hitRate(page);
  expect(hitRateBefore).toBeGreaterThan(0.5);
  await expect(page.getByTestId("metric-principle_hit_rate")).toHaveAttribute(
    "aria-label",
    /threshold >= 0\.95/,
  );
  await snap(page, testInfo, "evals-before");
  await page.context().close();
});

test("excluding the medical overlay: the preview shows the lost hits and the replayed prompt before saving", async ({
  browser,
}, testInfo) => {
  // The preview runs the eval set on both versions and refits the draft's learned weights
  // (cross-validated): seconds on an idle machine, much more on a busy one.
  test.setTimeout(180_000);
  const page = await adminPage(browser);
  await page.goto(EDITOR);
  await excluded(page).check();
  await page
    .getByLabel("Commit message")
    .fill("Exclude medical: previewed, saved anyway for the e2e");
  await page.getByRole("button", { name: "Preview impact" }).click();

  const preview = page.getByTestId("impact-preview");
  const lost = preview.getByTestId("lost-hits");
  await expect(lost).toBeVisible({ timeout: 120_000 });
  await expect(preview.getByTestId("impact-learned")).toBeVisible();
  // Every lost case had a medical principle before and has none after.
  await expect(lost.getByRole("listitem").first()).toContainText("MED.");
  await expect(preview.getByTestId("delta-principle_hit_rate")).toBeVisible();
  await expect(preview.getByTestId("replay-summary")).toHaveText(
    /^[1-9]\d* of \d+ recent prompts would change$/,
  );
  const examples = preview.getByRole("list", { name: "Examples of prompts that would change" });
  const example = examples.getByRole("listitem").filter({ hasText: PROMPT });
  await expect(example).toContainText(`-${medicalIds[0]}`);
  await snap(page, testInfo, "impact-preview");

  // Saved anyway, with the message: the header names the new version, and the preview of
  // a change now saved is gone, not called stale.
  await saveButton(page).click();
  const saved = page.getByRole("status").filter({ hasText: /Saved as version \d+/ });
  await expect(saved).toBeVisible();
  const version = /Saved as version (\d+)/.exec((await saved.textContent()) ?? "")?.[1];
  await expect(page.getByTestId("version-summary")).toContainText(`Version ${version}`);
  await expect(page.getByTestId("impact-stale")).toHaveCount(0);
  await expect(page.getByTestId("lost-hits")).toHaveCount(0);
  await page.context().close();
});

test("the Evals page shows the drop, and the overlay is restored", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  const after = await hitRate(page);
  expect(after).toBeLessThan(hitRateBefore);
  await expect(page.getByTestId("metric-principle_hit_rate")).toHaveAttribute(
    "aria-label",
    /missed/,
  );
  const failures = page.getByRole("region", { name: /Principle misses/i });
  await expect(failures.getByRole("link").first()).toHaveAttribute("href", /^\/retrieval\?prompt=/);
  await snap(page, testInfo, "evals-after");

  await page.goto(EDITOR);
  await excluded(page).uncheck();
  await page.getByLabel("Commit message").fill("Restore medical");
  await saveButton(page).click();
  await expect(page.getByRole("status").filter({ hasText: /Saved as version \d+/ })).toBeVisible();
  expect(await hitRate(page)).toBe(hitRateBefore);
  await page.context().close();
});
