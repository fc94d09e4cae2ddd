import { expect, test, type Page } from "@playwright/test";
import { adminPage, snap } from "./state";

// A one-field edit in the overlay's Form view is saved as a one-line change: the history's
// diff of the file shows the edited line and nothing else (quotes, folding, list styles and
// comments of the rest of the file are kept). Versions are not counted here, only read.
const EDITOR = "/constitution/overlays/legal";
const FILE = "overlays/legal.yaml";

const saveButton = (page: Page) =>
  page
    .getByRole("form", { name: "Save overlay" })
    .getByRole("button", { name: "Save", exact: true });

/** The added and removed lines of a file's diff on the history page, without the file headers. */
async function changedLines(
  page: Page,
  path: string,
): Promise<{ added: string[]; removed: string[] }> {
  const lines = await page
    .getByRole("region", { name: `Diff of ${path}` })
    .locator("pre span")
    .allTextContents();
  return {
    added: lines.filter((l) => l.startsWith("+") && !l.startsWith("+++")),
    removed: lines.filter((l) => l.startsWith("-") && !l.startsWith("---")),
  };
}

test("a one-field Form-view edit of an overlay gives a history diff of one changed line", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto(EDITOR);
  await expect(page.getByRole("tab", { name: "Form" })).toHaveAttribute("aria-selected", "true");
  const principle = page.getByRole("group", { name: /LEGAL\.INFO\.1/ });
  await expect(principle.getByLabel("Priority")).toHaveValue("80");
  await principle.getByLabel("Priority").fill("79");
  await page.getByLabel("Commit message").fill("Form diff e2e: one priority");
  await expect(saveButton(page)).toBeEnabled();
  await saveButton(page).click();
  const saved = page.getByRole("status").filter({ hasText: /Saved as version \d+/ });
  await expect(saved).toBeVisible();
  const version = Number(/Saved as version (\d+)/.exec((await saved.textContent()) ?? "")?.[1]);

  await page.goto(`/constitution/history?a=${version - 1}&b=${version}`);
  await expect(page.getByText("1 file changed.")).toBeVisible();
  expect(await changedLines(page, FILE)).toEqual({
    added: ["+    priority: 79"],
    removed: ["-    priority: 80"],
  });
  await snap(page, testInfo, "form-diff-one-line");

  // Adding one keyword to the overlay's block list adds one line.
  await page.goto(EDITOR);
  const keywords = page.getByRole("textbox", { name: /^Keywords/ });
  await keywords.fill(`${await keywords.inputValue()}, e2e keyword`);
  await page.getByLabel("Commit message").fill("Form diff e2e: one keyword");
  await saveButton(page).click();
  await expect(
    page.getByRole("status").filter({ hasText: `Saved as version ${version + 1}` }),
  ).toBeVisible();
  await page.goto(`/constitution/history?a=${version}&b=${version + 1}`);
  expect(await changedLines(page, FILE)).toEqual({ added: ["+  - e2e keyword"], removed: [] });
  await page.context().close();
});
