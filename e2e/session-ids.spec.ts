import { expect, test } from "@playwright/test";
import { adminPage, createIngestKey } from "./state";

// A session id is whatever the agent chose: one holding a space, a URL's own characters or
// a letter outside ASCII is listed on the Sessions page, and its link opens it.
test.describe.configure({ mode: "serial" });

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const ODD = [" ", "<", "=", "%", "/", "?", "#", "+", "&", '"', "é", "%2F"];
const ids = ODD.map((c, i) => `e2e odd${c}id-${i}-${RUN}`);

test("sessions whose ids hold URL characters open from their links", async ({
  browser,
  request,
}) => {
  const key = await createIngestKey(browser, `e2e-ids-${RUN}`);
  for (const [i, id] of ids.entries()) {
    const res = await request.post("/api/v1/events", {
      data: {
        type: "UserPromptSubmit",
        id: `e2e-ids-${RUN}-${i}`,
        session_id: id,
        prompt: `rename the helper in module ${i}`,
      },
      headers: { "x-api-key": key },
    });
    expect(res.status(), id).toBe(200);
  }
  const page = await adminPage(browser);
  for (const id of ids) {
    await page.goto("/sessions");
    await page.getByTestId(`session-${id}`).getByRole("link").first().click();
    await expect(page.getByRole("heading", { level: 1 }), id).toHaveText("Session");
    await expect(page.getByText(id, { exact: true }).first(), id).toBeVisible();
  }
  await page.context().close();
});
