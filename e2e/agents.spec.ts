import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { AGENT_SESSIONS } from "../cli/hook/fixtures/sessions";
import { agentLabel } from "../lib/schemas/agents";
import { adminPage, createIngestKey, snap } from "./state";

// A Codex, a Gemini CLI and a Cursor session through the real `charter hook --agent`, their
// makers' payloads (cli/hook/fixtures/<agent>/) against the running server: each session is
// listed on the Sessions page under its agent.
test.describe.configure({ mode: "serial" });

const ROOT = path.resolve(import.meta.dirname, "..");
const FIXTURES = path.join(ROOT, "cli", "hook", "fixtures");
const work = mkdtempSync(path.join(os.tmpdir(), "charter-e2e-agents-"));
const run = Date.now().toString(36);
let key = "";

/** Each agent's session as its settings run the hook: its own event names, in order. */
const AGENTS = [
  { name: "codex", slug: "codex", sessionKey: "session_id", calls: AGENT_SESSIONS.codex },
  { name: "gemini", slug: "gemini-cli", sessionKey: "session_id", calls: AGENT_SESSIONS.gemini },
  { name: "cursor", slug: "cursor", sessionKey: "conversation_id", calls: AGENT_SESSIONS.cursor },
] as const;

function hook(
  agent: (typeof AGENTS)[number],
  session: string,
  [event, fixture]: readonly [string, string],
  baseURL: string,
) {
  const payload = {
    ...(JSON.parse(readFileSync(path.join(FIXTURES, agent.name, fixture), "utf8")) as object),
    [agent.sessionKey]: session,
    ...(agent.name === "cursor" ? { session_id: session } : {}),
  };
  return spawnSync(
    process.execPath,
    [path.join(ROOT, "bin", "charter.mjs"), "hook", "--agent", agent.name, event],
    {
      input: JSON.stringify(payload),
      env: {
        ...process.env,
        CHARTER_URL: baseURL,
        CHARTER_API_KEY: key,
        CHARTER_SPOOL_DIR: path.join(work, "spool"),
        CHARTER_HOOK_CONFIG: path.join(work, "none.json"),
      },
      encoding: "utf8",
      timeout: 15_000,
    },
  );
}

test("an ingest key for the agents' hooks", async ({ browser, baseURL }) => {
  key = await createIngestKey(browser, `agents-${run}`);
  // The key's and the events route's first use, outside any hook's 1 s budget (see hooks.spec.ts).
  const warmUp = await fetch(new URL("/api/v1/events", baseURL), {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({
      type: "UserPromptSubmit",
      id: `agents-${run}-warm-up-1`,
      session_id: `agents-${run}-warm-up`,
      prompt: "warm up",
      agent: "codex",
    }),
  });
  expect(warmUp.status, await warmUp.text()).toBeLessThan(300);
});

for (const agent of AGENTS) {
  test(`a ${agentLabel(agent.slug)} session arrives through charter hook --agent ${agent.name} and is listed under its agent`, async ({
    browser,
    baseURL,
  }, testInfo) => {
    const session = `agents-e2e-${agent.name}-${run}`;
    for (const call of agent.calls) {
      const result = hook(agent, session, call, baseURL!);
      expect(result.status, `${call[0]}: ${result.stderr}`).toBe(0);
      // Nothing spooled: every event reached the server while the hook waited.
      expect(result.stderr, call[0]).not.toMatch(/spooled/);
      if (call[1].startsWith("user-prompt") || call[1].startsWith("before-")) {
        const output = JSON.parse(result.stdout) as Record<string, unknown>;
        if (agent.name === "cursor") expect(output).toEqual({ continue: true });
        else
          expect(output).toMatchObject({
            hookSpecificOutput: {
              additionalContext: expect.stringMatching(/^Charter constitution \(version \d+\)/),
            },
          });
      }
    }

    const page = await adminPage(browser);
    await page.goto(`/sessions?agent=${agent.slug}`);
    const row = page.getByTestId(`session-${session}`);
    await expect(row).toBeVisible();
    await expect(row.getByTestId("session-agent")).toContainText(agentLabel(agent.slug));
    await snap(page, testInfo, `sessions-${agent.name}`);
    await page.context().close();
  });
}

test("trust splits by agent: the Gemini CLI session's credited principle has a Gemini CLI row, and the Principles page filters by agent", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto(`/sessions/${encodeURIComponent(`agents-e2e-gemini-${run}`)}`);
  const credited = page.locator('[data-testid^="credit-"] a[href^="/principles/"]').first();
  await expect(credited).toBeVisible();
  await credited.click();
  await expect(page.getByTestId("trust-agent-gemini-cli")).toBeVisible();
  await expect(page.getByTestId("trust-agent-gemini-cli")).toContainText("Gemini CLI");
  await snap(page, testInfo, "trust-by-agent");

  await page.goto("/principles?agent=gemini-cli");
  await expect(page.getByText("Trust from Gemini CLI sessions")).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Agent" }).getByRole("link", { name: /Cursor/ }),
  ).toBeVisible();
  await page.context().close();
});
