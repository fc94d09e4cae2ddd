import { readFileSync } from "node:fs";
import path from "node:path";

export type E2EState = { pid: number; firstAdminLink: string; database: string; logFile: string };

export const STATE_FILE = path.resolve(import.meta.dirname, "..", "test-results", "e2e-state.json");

export function readState(): E2EState {
  return JSON.parse(readFileSync(STATE_FILE, "utf8")) as E2EState;
}

/** Storage state of the first admin, saved by auth.setup.ts for every spec. */
export const ADMIN_STATE = path.resolve(
  import.meta.dirname,
  "..",
  "test-results",
  "e2e-admin-state.json",
);

/** A page in a new browser context signed in as the first admin. */
export async function adminPage(
  browser: import("@playwright/test").Browser,
): Promise<import("@playwright/test").Page> {
  const context = await browser.newContext({ storageState: ADMIN_STATE });
  return context.newPage();
}

/** A full-page screenshot saved as a test artifact and attached to the report. */
export async function snap(
  page: import("@playwright/test").Page,
  testInfo: import("@playwright/test").TestInfo,
  name: string,
): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

/** Makes an API key with the ingest scope on the API keys page, as an admin would, and returns it. */
export async function createIngestKey(
  browser: import("@playwright/test").Browser,
  name: string,
): Promise<string> {
  const page = await adminPage(browser);
  await page.goto("/api-keys");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("checkbox", { name: "ingest" }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  const key = await page.getByLabel("New API key").inputValue();
  await page.context().close();
  return key;
}
