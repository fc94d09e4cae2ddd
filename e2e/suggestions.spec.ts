import { expect, test } from "@playwright/test";
import { adminPage, snap } from "./state";

// An editor asks for a fix of one of the current version's eval failures and sees the
// suggested edit as a diff, its change to the eval, the impact preview and Apply. Nothing
// is applied here: other stories read the constitution this one would change.
test("an editor asks for a fix of an eval failure and sees its diff, its metric change and Apply", async ({
  browser,
}, testInfo) => {
  test.setTimeout(300_000);
  const page = await adminPage(browser);
  await page.goto("/constitution/evals");
  const items = page.locator("#failures li");
  await expect(items.first().getByRole("button", { name: "Suggest a fix" })).toBeVisible({
    timeout: 60_000,
  });
  const tried = Math.min(await items.count(), 6);
  for (let i = 0; i < tried; i++) {
    const item = items.nth(i);
    await item.getByRole("button", { name: "Suggest a fix" }).click();
    const suggestion = item.getByTestId("eval-suggestion");
    await expect(suggestion.or(item.getByTestId("eval-suggestion-none"))).toBeVisible({
      timeout: 120_000,
    });
    if (!(await suggestion.isVisible())) continue;
    await expect(suggestion).toContainText("It makes no other case worse.");
    await expect(
      suggestion.getByRole("table", { name: "The eval before and after the suggestion" }),
    ).toBeVisible();
    await expect(suggestion.getByRole("form", { name: "Apply the suggestion" })).toBeVisible();
    await expect(suggestion.getByRole("textbox")).toHaveValue(/^Suggested fix for eval\//);
    await snap(page, testInfo, "eval-suggestion");
    return;
  }
  throw new Error(`none of the first ${tried} failures got a suggestion`);
});
