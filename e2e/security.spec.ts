import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIResponse, type Page, type Response } from "@playwright/test";
import { BASE_SECURITY_HEADERS, NO_CONTENT_CSP } from "../lib/http/security-headers";
import { adminPage, createIngestKey, snap } from "./state";

// Security headers on real answers, pages that work under the nonce CSP, and the
// issue's reproduction: a page on another port of the same host forging an event
// with the admin's cookie, and framing the dashboard.

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

function expectBaseHeaders(headers: Record<string, string>): void {
  for (const [key, value] of Object.entries(BASE_SECURITY_HEADERS))
    expect(headers[key], key).toBe(value);
  // The e2e server is plain http: no HSTS.
  expect(headers["strict-transport-security"]).toBeUndefined();
}

function expectPagePolicy(res: Response | APIResponse | null): string {
  expect(res).not.toBeNull();
  const headers = res!.headers();
  expectBaseHeaders(headers);
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'(;|$)/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("unsafe-eval");
  return csp;
}

/** Collects what Chromium says about the Content Security Policy, and page errors. */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) violations.push(message.text());
  });
  page.on("pageerror", (error) => violations.push(`page error: ${error.message}`));
  return violations;
}

/** A page served from another origin (another port of the same host), as in the issue. */
async function foreignSite(html: string): Promise<{ server: Server; url: string }> {
  const server = createServer((_, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

test("a page, a 404, an API answer and a static asset carry the security headers", async ({
  browser,
  request,
  baseURL,
}) => {
  const page = await adminPage(browser);
  const home = await page.goto("/");
  const policy = expectPagePolicy(home);
  // Every page load has its own nonce, and Next put it on its scripts.
  const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
  expect(
    await page
      .locator("script[src]")
      .evaluateAll((scripts) => scripts.map((s) => (s as HTMLScriptElement).nonce)),
  ).toContain(nonce);
  expect(expectPagePolicy(await page.reload())).not.toContain(nonce);

  const missing = await page.goto("/no-such-page");
  expect(missing!.status()).toBe(404);
  expectPagePolicy(missing);

  for (const path of ["/api/health", "/api/v1/turns", "/api/v1/events"]) {
    const res = await request.get(path);
    expectBaseHeaders(res.headers());
    expect(res.headers()["content-security-policy"], path).toBe(NO_CONTENT_CSP);
  }

  const script = await page
    .goto("/")
    .then(() => page.locator("script[src*='/_next/static/']").first().getAttribute("src"));
  const asset = await request.get(new URL(script!, baseURL).toString());
  expect(asset.status()).toBe(200);
  expectBaseHeaders(asset.headers());
  await page.context().close();
});

test("the Overview charts and the constitution YAML editor work under the CSP", async ({
  browser,
  request,
}, testInfo) => {
  // Charts need a scored turn: report one with a key, as an agent would.
  const key = await createIngestKey(browser, `e2e-security-${RUN}`);
  const session = `e2e-security-${RUN}`;
  for (const event of [
    {
      id: `${session}-prompt`,
      type: "UserPromptSubmit",
      session_id: session,
      prompt: "Summarize the release notes.",
    },
    { id: `${session}-stop`, type: "Stop", session_id: session, response: "Here is the summary." },
  ]) {
    expect(
      (
        await request.post("/api/v1/events", { data: event, headers: { "x-api-key": key } })
      ).status(),
    ).toBe(200);
  }

  const page = await adminPage(browser);
  const violations = watchCsp(page);
  await page.goto("/");
  await expect(
    page.getByTestId("trend-chart").locator("svg.recharts-surface").first(),
  ).toBeVisible();
  await expect(
    page.getByTestId("distribution-chart").locator("svg.recharts-surface").first(),
  ).toBeVisible();
  await snap(page, testInfo, "overview-under-csp");

  await page.goto("/constitution/overlays/medical");
  await page.getByRole("tab", { name: "YAML" }).click();
  await expect(page.getByRole("textbox", { name: "Overlay YAML" })).toBeVisible();
  // CodeMirror's own <style> elements applied: its base theme makes the editor a flex column.
  await expect(page.locator(".cm-editor").first()).toHaveCSS("display", "flex");
  await snap(page, testInfo, "yaml-editor-under-csp");

  // A client-side navigation loads more chunks under the first page's nonce.
  await page.getByRole("link", { name: "Overview" }).first().click();
  await expect(page.getByTestId("trend-chart")).toBeVisible();
  expect(violations).toEqual([]);
  await page.context().close();
});

test("a page on another port of the same host can neither forge an event with the admin's cookie nor frame the dashboard", async ({
  browser,
  baseURL,
}) => {
  const session = `e2e-forged-${RUN}`;
  const target = new URL("/api/v1/events", baseURL).toString();
  // A whole turn (prompt and answer), so that had it been accepted, /api/v1/turns would list it.
  const forged = JSON.stringify({
    events: [
      { id: `${session}-prompt`, type: "UserPromptSubmit", session_id: session, prompt: "forged" },
      { id: `${session}-stop`, type: "Stop", session_id: session, response: "forged answer" },
    ],
  });
  const site = await foreignSite(`<!doctype html><title>elsewhere</title>
<iframe id="frame" src="${baseURL}/"></iframe>
<script>
  // text/plain needs no CORS preflight: before the fix, this reached the route with the cookie.
  window.forged = fetch(${JSON.stringify(target)}, { method: "POST", credentials: "include", headers: { "content-type": "text/plain" }, body: ${JSON.stringify(forged)} })
    .then(() => "sent", (e) => "blocked: " + e.message);
</script>`);
  try {
    const page = await adminPage(browser);
    const frameRefusals: string[] = [];
    page.on("console", (message) => {
      if (message.text().includes("frame-ancestors")) frameRefusals.push(message.text());
    });
    await page.goto(site.url);
    // The answer (403) is hidden from the page by CORS; the fetch settles once the server has answered.
    await page.evaluate(() => (window as unknown as { forged: Promise<string> }).forged);
    await expect.poll(() => frameRefusals.length).toBeGreaterThan(0);

    // Nothing was stored: the admin's own session asks for the forged session's turns.
    await page.goto("/");
    const turnsOf = async (id: string) =>
      (
        (await (await page.request.get(`/api/v1/turns?session=${id}`)).json()) as {
          rows: unknown[];
        }
      ).rows;
    expect(await turnsOf(session)).toEqual([]);

    // The same cookie from Charter's own page, as JSON, is accepted: the Origin made the difference.
    const own = `e2e-own-${RUN}`;
    const status = await page.evaluate(
      async ({ url, id }) =>
        (
          await fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              id: `${id}-prompt`,
              type: "UserPromptSubmit",
              session_id: id,
              prompt: "mine",
            }),
          })
        ).status,
      { url: target, id: own },
    );
    expect(status).toBe(200);
    await page.context().close();
  } finally {
    site.server.close();
  }
});
