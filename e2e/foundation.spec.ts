import { expect, test, type Browser, type Page } from "@playwright/test";
import { ADMIN_ITEMS, NAV_ITEMS } from "../components/shell/nav-items";
import { ADMIN_STATE, readState } from "./state";

// One server, one story: the first admin signs in, invites a viewer, makes and
// revokes an API key, and signs out. Later steps depend on earlier ones.
test.describe.configure({ mode: "serial" });

async function signInWithLink(browser: Browser, link: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  return page;
}

test("the first-admin link signed in (auth.setup.ts) and works only once", async ({ browser }) => {
  const admin = await browser.newContext({ storageState: ADMIN_STATE });
  const page = await admin.newPage();
  await page.goto("/");
  await expect(page.getByTestId("current-user")).toHaveText("admin@charter.local");
  await admin.close();

  // The link is single use: a second visit lands on sign-in with an error.
  const other = await browser.newContext();
  const again = await other.newPage();
  await again.goto(readState().firstAdminLink);
  await expect(again).toHaveURL(/\/sign-in/);
  await other.close();
});

test("the shell shows every section; screenshots are saved", async ({ browser }, testInfo) => {
  const context = await browser.newContext({ storageState: ADMIN_STATE });
  const page = await context.newPage();
  for (const item of NAV_ITEMS) {
    await page.goto(item.href);
    await expect(
      page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: item.label, exact: true }),
    ).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(item.label);
    const file = testInfo.outputPath(`shell-${item.label.toLowerCase()}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(`shell-${item.label}`, { path: file, contentType: "image/png" });
  }
  // The admin's own pages, and one document: every page has its own title.
  for (const item of ADMIN_ITEMS) {
    await page.goto(item.href);
    await expect(
      page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: item.label, exact: true }),
    ).toHaveAttribute("aria-current", "page");
    const file = testInfo.outputPath(`shell-${item.label.toLowerCase().replace(/\s+/g, "-")}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(`shell-${item.label}`, { path: file, contentType: "image/png" });
  }
  await page.goto("/docs/turns");
  await expect(page.getByRole("heading", { name: "Turns and scores" })).toBeVisible();
  await expect(page).toHaveTitle("Turns and scores · Charter");
  await page.screenshot({ path: testInfo.outputPath("doc-turns.png"), fullPage: true });
  await context.close();
});

test("a viewer gets the 403 page on admin pages, not a crash; sign-out kills the session", async ({
  browser,
}) => {
  const admin = await browser.newContext({ storageState: ADMIN_STATE });
  const page = await admin.newPage();
  await page.goto("/users");
  const form = page.getByRole("form", { name: "Invite someone" });
  await form.getByLabel("E-mail").fill("viewer@example.com");
  await form.getByLabel("Name").fill("Vera Viewer");
  await form.getByRole("combobox").selectOption("viewer");
  await form.getByRole("button", { name: "Invite" }).click();
  const linkBox = page.getByLabel("Sign-in link for viewer@example.com");
  await expect(linkBox).toBeVisible();
  const link = await linkBox.inputValue();
  await expect(page.getByTestId("user-viewer@example.com")).toContainText("viewer");

  // A bad e-mail is refused with a message next to the field, and nothing is added.
  await form.getByLabel("E-mail").fill("not-an-email");
  await form.getByLabel("Name").fill("Nobody");
  await form.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByText("Enter a valid e-mail address.")).toBeVisible();
  await admin.close();

  const viewer = await signInWithLink(browser, link);
  await expect(viewer.getByRole("link", { name: "Users" })).toHaveCount(0);
  for (const path of ["/users", "/api-keys", "/audit"]) {
    const response = await viewer.goto(path);
    expect(response?.status()).toBe(403);
    await expect(
      viewer.getByRole("heading", { name: "You do not have access to this page" }),
    ).toBeVisible();
  }

  // Sign-out ends the session: replaying the cookie from before gets no session.
  await viewer.goto("/");
  const cookies = await viewer.context().cookies();
  await viewer.getByRole("button", { name: "Sign out" }).click();
  await expect(viewer).toHaveURL(/\/sign-in/);
  const replay = await browser.newContext();
  await replay.addCookies(cookies);
  const again = await replay.newPage();
  await again.goto("/");
  await expect(again).toHaveURL(/\/sign-in/);
  await replay.close();
  await viewer.context().close();
});

test("an API key authenticates; once revoked it gets 401", async ({ browser, request }) => {
  const anonymous = await request.get("/api/health?auth=1");
  expect(anonymous.status()).toBe(401);
  expect((await anonymous.json()).error.code).toBe("unauthorized");

  const context = await browser.newContext({ storageState: ADMIN_STATE });
  const page = await context.newPage();
  await page.goto("/api-keys");
  await page.getByLabel("Name").fill("e2e-agent");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = await page.getByLabel("New API key").inputValue();
  expect(key).toMatch(/^chk_/);

  const ok = await request.get("/api/health?auth=1", { headers: { "x-api-key": key } });
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toMatchObject({
    status: "ok",
    caller: { kind: "api_key", name: "e2e-agent" },
  });

  const keyRow = page.getByTestId("api-key-e2e-agent");
  await keyRow.getByRole("button", { name: "Revoke" }).click();
  await expect(keyRow.getByRole("group")).toContainText('Revoke the key "e2e-agent"?');
  await keyRow.getByRole("button", { name: "Revoke the key" }).click();
  await expect(page.getByTestId("api-key-e2e-agent")).toContainText("revoked");

  const refused = await request.get("/api/health?auth=1", { headers: { "x-api-key": key } });
  expect(refused.status()).toBe(401);

  // The audit log recorded both changes.
  await page.goto("/audit");
  await expect(page.getByText("api_key.revoke").first()).toBeVisible();
  await expect(page.getByText("api_key.create").first()).toBeVisible();
  // Every row, these two included, is on the hash chain, and the page says it verifies.
  await expect(page.getByTestId("audit-chain")).toContainText(
    /Chain verified\s*Verified through row \d+ \(all \d+ rows checked\)/,
  );
  await context.close();
});

test("health is public and names the database", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body.status).toBe("ok");
  expect(["embedded", "postgres"]).toContain(body.db);
  expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
});

test("an address whose percent-encoding is not UTF-8 gets 400, not a server error", async ({
  request,
}) => {
  for (const path of [
    "/turns/%ED%A0%80",
    "/sessions/%E0%80",
    "/principles/%ED%A0%80",
    "/docs/%FF",
  ]) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(400);
    expect(await res.text()).toBe(
      "Bad request: the address holds a percent-encoded sequence that is not UTF-8.\n",
    );
  }
});
