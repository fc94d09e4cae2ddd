import { expect, test, type Page } from "@playwright/test";
import { adminPage, snap } from "./state";

// Two editors open the same overlay at the same version and edit different principles.
// The first saves; the second's save is refused as a conflict, shows the first one's
// change, and re-applies the draft on top of it: the merged text is shown for review,
// not saved, and saving it keeps both changes.
const EDITOR = "/constitution/overlays/coding";
const FILE = "overlays/coding.yaml";

const saveButton = (page: Page) =>
  page
    .getByRole("form", { name: "Save overlay" })
    .getByRole("button", { name: "Save", exact: true });
const principle = (page: Page, id: string) =>
  page.getByRole("group", { name: new RegExp(id.replaceAll(".", "\\.")) });

test("a conflicting save shows the other change and re-applies the draft on top; both changes are saved", async ({
  browser,
}, testInfo) => {
  const first = await adminPage(browser);
  const second = await adminPage(browser);
  await first.goto(EDITOR);
  await second.goto(EDITOR);

  await principle(first, "CODE.TESTS.1")
    .getByLabel("Title")
    .fill("Never Fake Passing Tests (first editor)");
  await first.getByLabel("Commit message").fill("Conflict e2e: the first editor's title");
  await saveButton(first).click();
  const saved = first.getByRole("status").filter({ hasText: /Saved as version \d+/ });
  await expect(saved).toBeVisible();
  const theirs = Number(/Saved as version (\d+)/.exec((await saved.textContent()) ?? "")?.[1]);

  await principle(second, "CODE.DEPS.1")
    .getByLabel("Title")
    .fill("Dependency and Supply-Chain Care (second editor)");
  await second.getByLabel("Commit message").fill("Conflict e2e: the second editor's title");
  await saveButton(second).click();

  // The conflict view: the other person's change to this file, as a diff.
  const panel = second.getByRole("region", { name: "Conflicting change" });
  await expect(panel).toContainText(`Version ${theirs} was saved while you edited`);
  const change = panel.getByLabel(`Their change to ${FILE}`);
  await expect(change).toContainText('-    title: "Never Fake Passing Tests"');
  await expect(change).toContainText('+    title: "Never Fake Passing Tests (first editor)"');
  await snap(second, testInfo, "conflict-view");

  await panel.getByRole("button", { name: "Re-apply my draft on top" }).click();
  await expect(
    second.getByRole("status").filter({ hasText: `re-applied on top of version ${theirs}` }),
  ).toBeVisible();
  await expect(principle(second, "CODE.TESTS.1").getByLabel("Title")).toHaveValue(
    "Never Fake Passing Tests (first editor)",
  );
  await expect(principle(second, "CODE.DEPS.1").getByLabel("Title")).toHaveValue(
    "Dependency and Supply-Chain Care (second editor)",
  );
  // Not saved until the editor says so.
  await expect(second.getByRole("status").filter({ hasText: /Saved as version/ })).toHaveCount(0);
  await snap(second, testInfo, "conflict-merged");

  await expect(saveButton(second)).toBeEnabled();
  await saveButton(second).click();
  await expect(
    second.getByRole("status").filter({ hasText: `Saved as version ${theirs + 1}` }),
  ).toBeVisible();

  // Both changes are in the version now current.
  await second.goto(EDITOR);
  await expect(principle(second, "CODE.TESTS.1").getByLabel("Title")).toHaveValue(
    "Never Fake Passing Tests (first editor)",
  );
  await expect(principle(second, "CODE.DEPS.1").getByLabel("Title")).toHaveValue(
    "Dependency and Supply-Chain Care (second editor)",
  );
  await second.goto(`/constitution/history?a=${theirs}&b=${theirs + 1}`);
  const diff = second.getByRole("region", { name: `Diff of ${FILE}` });
  await expect(diff).toContainText(
    '+    title: "Dependency and Supply-Chain Care (second editor)"',
  );
  await expect(diff).not.toContainText("first editor");
  await first.context().close();
  await second.context().close();
});

test("overlapping edits are named by line and the draft is kept", async ({ browser }) => {
  const first = await adminPage(browser);
  const second = await adminPage(browser);
  await first.goto(EDITOR);
  await second.goto(EDITOR);

  await principle(first, "CODE.SECURE.1").getByLabel("Priority").fill("77");
  await first.getByLabel("Commit message").fill("Conflict e2e: the first editor's priority");
  await saveButton(first).click();
  await expect(first.getByRole("status").filter({ hasText: /Saved as version \d+/ })).toBeVisible();

  await principle(second, "CODE.SECURE.1").getByLabel("Priority").fill("76");
  await second.getByLabel("Commit message").fill("Conflict e2e: the second editor's priority");
  await saveButton(second).click();
  const panel = second.getByRole("region", { name: "Conflicting change" });
  await panel.getByRole("button", { name: "Re-apply my draft on top" }).click();
  await expect(panel.getByRole("alert")).toContainText(
    /change the same place.*line \d+ of your draft/s,
  );
  await expect(principle(second, "CODE.SECURE.1").getByLabel("Priority")).toHaveValue("76");
  await first.context().close();
  await second.context().close();
});
