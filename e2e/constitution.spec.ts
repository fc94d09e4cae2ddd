import { expect, test, type Page } from "@playwright/test";
import { adminPage, snap } from "./state";

// One story on one server: version 1 is the shipped constitution; the admin saves
// version 2 from the form, 3 from the YAML view, rolls back to 2 as version 4, a stale
// save is refused as version 5 lands, and a core principle is edited as version 6.
// Later steps depend on earlier ones.
test.describe.configure({ mode: "serial" });

const EDITOR = "/constitution/overlays/medical";

const saveButton = (page: Page) =>
  page
    .getByRole("form", { name: "Save overlay" })
    .getByRole("button", { name: "Save", exact: true });
const saveCoreButton = (page: Page) =>
  page
    .getByRole("form", { name: "Save core file" })
    .getByRole("button", { name: "Save", exact: true });

test("the constitution page lists principles and overlays, with filters", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto("/constitution");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Constitution");
  await expect(page.getByTestId("version-summary")).toContainText("Version 1");
  await expect(page.getByTestId("principle-CORE.NM.1")).toBeVisible();

  await page.getByLabel("Level").selectOption("hard");
  await page.getByLabel("Domain").selectOption("medical");
  await expect(page.getByTestId("principle-MED.EMERGENCY.1")).toBeVisible();
  await expect(page.getByTestId("principle-MED.DISCLAIMER.1")).toHaveCount(0);
  await expect(page.getByTestId("principle-CORE.NM.1")).toHaveCount(0);
  await page.getByLabel("Level").selectOption("");
  await page.getByLabel("Domain").selectOption("");
  await page.getByRole("searchbox", { name: "Search principles" }).fill("stroke");
  await expect(page.getByTestId("principle-MED.EMERGENCY.1")).toBeVisible();
  await expect(page.getByTestId("principle-CORE.NM.1")).toHaveCount(0);

  const medical = page.getByTestId("overlay-medical");
  await expect(medical).toContainText("sensitive");
  await expect(medical).toContainText("SOFT.HONEST.1 → 85");
  await snap(page, testInfo, "constitution");
  await medical.getByRole("link", { name: "medical" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Overlay: medical");
  await page.context().close();
});

test("an overlay is edited in the form view (version 2) and then in the YAML view (version 3)", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto(EDITOR);
  await expect(page.getByRole("tab", { name: "Form" })).toHaveAttribute("aria-selected", "true");
  await expect(saveButton(page)).toBeDisabled();

  await page
    .getByRole("textbox", { name: /^Description/ })
    .fill(
      "Personal health questions: symptoms, illnesses, medications and when to see a doctor. Edited in the form by e2e.",
    );
  const dose = page.getByRole("group", { name: /^Principle 3 / });
  await expect(dose).toContainText("MED.DOSE.1");

  // A priority out of range is reported next to the field and in the list, and Save is refused.
  await dose.getByLabel("Priority").fill("150");
  await expect(dose.getByText("must be between 1 and 100")).toBeVisible();
  await expect(
    page.getByRole("alert", { name: /1 problem in overlays\/medical\.yaml/ }),
  ).toContainText("additional_principles[2].priority: must be between 1 and 100");
  await page.getByLabel("Commit message").fill("Tighten medical dosing");
  await expect(saveButton(page)).toBeDisabled();
  await expect(page.getByText("Fix the problem above before saving.")).toBeVisible();
  await snap(page, testInfo, "overlay-form-invalid");

  await dose.getByLabel("Priority").fill("79");
  await expect(dose.getByText("must be between 1 and 100")).toHaveCount(0);
  await expect(saveButton(page)).toBeEnabled();
  await saveButton(page).click();
  await expect(page.getByRole("status")).toContainText("Saved as version 2");
  await snap(page, testInfo, "overlay-form-saved");

  // The form's edits carry into the YAML view.
  await page.getByRole("tab", { name: "YAML" }).click();
  const editor = page.getByRole("textbox", { name: "Overlay YAML" });
  // CodeMirror renders only the lines in view: the description is near the top.
  await expect(editor).toContainText("Edited in the form by e2e.");

  // A bad value typed in YAML is flagged at its line, in the gutter and in the list.
  await editor.click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type("excluded: maybe");
  await expect(
    page.getByRole("alert", { name: /1 problem in overlays\/medical\.yaml/ }),
  ).toContainText("excluded:");
  await expect(page.locator(".cm-lint-marker-error")).toBeVisible();
  await expect(saveButton(page)).toBeDisabled();
  await snap(page, testInfo, "overlay-yaml-invalid");
  // The form cannot hold a non-boolean flag: switching is refused with the reason.
  await page.getByRole("tab", { name: "Form" }).click();
  await expect(
    page.getByText("The form cannot show this YAML: excluded must be true or false"),
  ).toBeVisible();
  await expect(page.getByRole("tab", { name: "YAML" })).toHaveAttribute("aria-selected", "true");

  await editor.click();
  await page.keyboard.press("ControlOrMeta+End");
  for (let i = 0; i < "maybe".length; i++) await page.keyboard.press("Backspace");
  // What moralstack's Pydantic reads ("no" is false) loads, with an amber warning at its line; Save is allowed.
  await page.keyboard.type('"no"');
  await expect(page.locator(".cm-lint-marker-error")).toHaveCount(0);
  await expect(
    page.getByRole("status", { name: /1 warning in overlays\/medical\.yaml \(it loads\)/ }),
  ).toContainText('excluded: is "no", not true or false: read as false');
  for (let i = 0; i < '"no"'.length; i++) await page.keyboard.press("Backspace");
  await page.keyboard.type("false");
  await expect(
    page.getByRole("status", { name: /warning in overlays\/medical\.yaml/ }),
  ).toHaveCount(0);
  await expect(page.locator(".cm-lint-marker-error")).toHaveCount(0);
  await page.getByLabel("Commit message").fill("Mark medical as not excluded, explicitly");
  await expect(saveButton(page)).toBeEnabled();
  await saveButton(page).click();
  await expect(page.getByRole("status")).toContainText("Saved as version 3");
  await snap(page, testInfo, "overlay-yaml-saved");

  // Back in the form, the YAML edit is there.
  await page.getByRole("tab", { name: "Form" }).click();
  await expect(page.getByLabel("Excluded")).not.toBeChecked();
  await expect(page.getByRole("textbox", { name: /^Description/ })).toHaveValue(
    /Edited in the form by e2e\./,
  );
  await page.context().close();
});

test("history shows the diff between versions and rolls back to version 2 as version 4", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto("/constitution/history?a=1&b=2");
  await expect(page.getByRole("region", { name: "Diff of overlays/medical.yaml" })).toContainText(
    "+    priority: 79",
  );

  await page.goto("/constitution/history?a=2&b=3");
  await expect(page.getByTestId("version-3")).toContainText("current");
  await expect(page.getByTestId("version-3")).toContainText(
    "Mark medical as not excluded, explicitly",
  );
  const diff = page.getByRole("region", { name: "Diff of overlays/medical.yaml" });
  await expect(diff).toContainText("+excluded: false");
  await expect(diff).toContainText("+1");
  await expect(page.getByText("1 file changed.")).toBeVisible();
  await snap(page, testInfo, "history-2-3");

  // The defaults compare the previous version with the current one.
  await page.goto("/constitution/history");
  await expect(
    page.getByRole("heading", { name: "Changes from version 2 to version 3" }),
  ).toBeVisible();

  const row = page.getByTestId("version-2");
  await row.getByRole("button", { name: "Roll back to this version" }).click();
  await row.getByLabel("Rollback message").fill("Undo the explicit flag");
  await row.getByRole("button", { name: "Confirm rollback" }).click();
  await expect(row.getByRole("status")).toHaveText("Rolled back: version 4 is now current.");
  await expect(page.getByTestId("version-4")).toContainText("current");
  await expect(page.getByTestId("version-4")).toContainText("Undo the explicit flag");

  await page.getByLabel("From version").selectOption("2");
  await page.getByLabel("To version").selectOption("4");
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page).toHaveURL(/a=2&b=4/);
  await expect(page.getByText("No files differ")).toBeVisible();
  await snap(page, testInfo, "history-rolled-back");
  await page.context().close();
});

test("the retrieval playground detects the medical domain and lists its emergency principle", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto("/retrieval");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Retrieval");
  await page
    .getByRole("textbox", { name: /^Prompt/ })
    .fill("I have had severe headaches for three days");
  await page.getByRole("button", { name: "Retrieve" }).click();
  await expect(page.getByTestId("domain-medical")).toBeVisible();
  await expect(page.getByTestId("retrieved-MED.EMERGENCY.1")).toBeVisible();
  await expect(
    page.getByRole("heading", { name: "Retrieved principles (constitution version 4)" }),
  ).toBeVisible();
  await expect(page.getByLabel("Debug info")).toContainText("Prefilter cache");
  await page.getByText("Raw debug JSON").click();
  await expect(page.locator("pre").filter({ hasText: '"prefilter_cache_status"' })).toBeVisible();
  await snap(page, testInfo, "retrieval");
  await page.context().close();
});

test("two editors save from the same base: the second gets a conflict and a reload link", async ({
  browser,
}, testInfo) => {
  const first = await adminPage(browser);
  const second = await first.context().newPage();
  await first.goto(EDITOR);
  await second.goto(EDITOR);

  await first
    .getByRole("textbox", { name: /^Description/ })
    .fill("Health questions, edited by the first editor.");
  await first.getByLabel("Commit message").fill("First editor's change");
  await saveButton(first).click();
  await expect(first.getByRole("status")).toContainText("Saved as version 5");

  await second
    .getByRole("textbox", { name: /^Description/ })
    .fill("Health questions, edited by the second editor.");
  await second.getByLabel("Commit message").fill("Second editor's change");
  await saveButton(second).click();
  await expect(
    second
      .getByRole("alert")
      .filter({ hasText: "Version 5 was saved after the version 4 you edited" }),
  ).toBeVisible();
  await snap(second, testInfo, "overlay-conflict");

  await second.getByRole("link", { name: "Reload" }).click();
  await expect(second.getByTestId("version-summary")).toContainText("Version 5");
  await expect(second.getByRole("textbox", { name: /^Description/ })).toHaveValue(
    "Health questions, edited by the first editor.",
  );
  await first.context().close();
});

test("a core principle's priority is edited in the form view (version 6) and shows in the history", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto("/constitution");
  await page.getByRole("link", { name: "Edit core principles" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Core principles");
  await expect(page.getByRole("tab", { name: "Form" })).toHaveAttribute("aria-selected", "true");
  await expect(saveCoreButton(page)).toBeDisabled();

  const clarity = page.getByRole("group", { name: /SOFT\.CLARITY\.1/ });
  await expect(clarity.getByLabel("Priority")).toHaveValue("40");
  await clarity.getByLabel("Priority").fill("45");
  await page.getByLabel("Commit message").fill("Raise the priority of clarity");
  await expect(saveCoreButton(page)).toBeEnabled();
  await saveCoreButton(page).click();
  await expect(page.getByRole("status")).toContainText("Saved as version 6");
  await snap(page, testInfo, "core-form-saved");

  await page.goto("/constitution/history");
  await expect(page.getByTestId("version-6")).toContainText("current");
  await expect(page.getByTestId("version-6")).toContainText("Raise the priority of clarity");
  // Only the edited line changed: the file's comments and formatting are kept.
  const diff = page.getByRole("region", { name: "Diff of core.yaml" });
  await expect(diff).toContainText("-    priority: 40");
  await expect(diff).toContainText("+    priority: 45");
  await expect(page.getByText("1 file changed.")).toBeVisible();
  await snap(page, testInfo, "core-history");
  await page.context().close();
});
