import { expect, test, type Browser, type Page } from "@playwright/test";
import { adminPage, snap } from "./state";

// A viewer reads the constitution's files but cannot change them: the overlay and core
// pages show them as text, with a note at the top, and offer no input and no Save.
test.describe.configure({ mode: "serial" });

const EMAIL = "reader@example.com";

/** Invites a viewer on the users page, as an admin would, and signs in with the link shown. */
async function viewerPage(browser: Browser): Promise<Page> {
  const admin = await adminPage(browser);
  await admin.goto("/users");
  const form = admin.getByRole("form", { name: "Invite someone" });
  await form.getByLabel("E-mail").fill(EMAIL);
  await form.getByLabel("Name").fill("Rita Reader");
  await form.getByRole("combobox").selectOption("viewer");
  await form.getByRole("button", { name: "Invite" }).click();
  const link = await admin.getByLabel(`Sign-in link for ${EMAIL}`).inputValue();
  await admin.context().close();

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  return page;
}

/** Nothing in the page's content can be typed into, ticked or chosen. */
async function expectNoInputs(page: Page) {
  const main = page.getByRole("main");
  await expect(main.locator("input, textarea, select, [contenteditable='true']")).toHaveCount(0);
  await expect(main.getByRole("form", { name: /^Save / })).toHaveCount(0);
  await expect(
    main.getByRole("button", { name: /^(Save|Add principle|Add override|Remove)/ }),
  ).toHaveCount(0);
}

test("a viewer sees the overlay and core pages read-only", async ({ browser }, testInfo) => {
  const page = await viewerPage(browser);

  await page.goto("/constitution/overlays/medical");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Overlay: medical");
  const note = page.getByRole("note");
  await expect(note).toContainText("Read only.");
  await expect(note).toContainText("changing it needs the editor role");
  await expect(page.getByRole("article", { name: /MED\.EMERGENCY\.1/ })).toBeVisible();
  await expectNoInputs(page);
  await snap(page, testInfo, "viewer-overlay-form");

  // The YAML view is text too.
  await page.getByRole("tab", { name: "YAML" }).click();
  await expect(page.getByLabel("Overlay YAML")).toContainText("domain: medical");
  await expectNoInputs(page);

  await page.goto("/constitution");
  await expect(page.getByRole("link", { name: "View core principles" })).toBeVisible();
  await page.getByRole("link", { name: "View core principles" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Core principles");
  await expect(page.getByRole("note")).toContainText("Read only.");
  await expect(page.getByRole("article", { name: /CORE\.NM\.1/ })).toBeVisible();
  await expectNoInputs(page);
  await snap(page, testInfo, "viewer-core-form");
  await page.context().close();
});
