import { expect, test as setup } from "@playwright/test";
import { ADMIN_STATE, readState } from "./state";

setup("the first-admin link printed by the server signs in", async ({ page }) => {
  await page.goto(readState().firstAdminLink);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByTestId("current-user")).toHaveText("admin@charter.local");
  await page.context().storageState({ path: ADMIN_STATE });
});
