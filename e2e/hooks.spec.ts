import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ADMIN_STATE } from "./state";

// A Claude Code session through the real `charter hook` command, against the running server.
test.describe.configure({ mode: "serial" });

const ROOT = path.resolve(import.meta.dirname, "..");
const FIXTURES = path.join(ROOT, "cli", "hook", "fixtures");
const work = mkdtempSync(path.join(os.tmpdir(), "charter-e2e-hooks-"));
const session = `hooks-e2e-${Date.now().toString(36)}`;
let key = "";

function hook(
  event: string,
  fixture: string,
  baseURL: string,
  patch: Record<string, unknown> = {},
) {
  const payload = {
    ...JSON.parse(readFileSync(path.join(FIXTURES, fixture), "utf8")),
    session_id: session,
    ...patch,
  };
  const env = {
    ...process.env,
    CHARTER_URL: baseURL,
    CHARTER_API_KEY: key,
    CHARTER_SPOOL_DIR: path.join(work, "spool"),
    CHARTER_HOOK_CONFIG: path.join(work, "none.json"),
  };
  return spawnSync(process.execPath, [path.join(ROOT, "bin", "charter.mjs"), "hook", event], {
    input: JSON.stringify(payload),
    env,
    encoding: "utf8",
    timeout: 15_000,
  });
}

test("a Claude Code session arrives through the hooks and is scored", async ({
  browser,
  baseURL,
}, testInfo) => {
  const context = await browser.newContext({ storageState: ADMIN_STATE });
  const page = await context.newPage();
  await page.goto("/api-keys");
  await page.getByLabel("Name").fill(`hooks-${session}`);
  await page.getByRole("button", { name: "Create key" }).click();
  key = await page.getByLabel("New API key").inputValue();

  // The key was made a moment ago: one prompt of another session first, sent directly and waited for,
  // so that this test times the agent's path and not the server's first use of the new key and of the
  // events route (which can miss the hook's 1 s budget on a loaded machine; the hook then spools, rightly,
  // and its spooled event would be replayed first by the next hook, eating that one's budget too).
  const warmUp = await fetch(new URL("/api/v1/events", baseURL), {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({
      type: "UserPromptSubmit",
      id: `${session}-warm-up-1`,
      session_id: `${session}-warm-up`,
      prompt: "warm up",
    }),
  });
  expect(warmUp.status, await warmUp.text()).toBeLessThan(300);
  const prompt = hook("UserPromptSubmit", "user-prompt-submit.json", baseURL!);
  expect(prompt.status, prompt.stderr).toBe(0);
  expect(prompt.stdout, `the hook injected nothing; its stderr: ${prompt.stderr}`).not.toBe("");
  const output = JSON.parse(prompt.stdout) as {
    hookSpecificOutput: { hookEventName: string; additionalContext: string };
  };
  expect(output.hookSpecificOutput.hookEventName).toBe("UserPromptSubmit");
  expect(output.hookSpecificOutput.additionalContext).toMatch(
    /^Charter constitution \(version \d+\)/,
  );

  // A failed Bash call (the credit-assignment spec: exit code 1), then a successful edit.
  const failing = {
    tool_response: {
      stdout: "1 failing",
      stderr: "AssertionError: expected 0.1 to be 0.10\nExit code: 1",
      interrupted: false,
      isImage: false,
    },
  };
  for (const [event, fixture, patch] of [
    ["PostToolUse", "post-tool-use-bash.json", failing],
    ["PostToolUse", "post-tool-use-edit.json", {}],
  ] as const) {
    const result = hook(event, fixture, baseURL!, patch);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
  }
  const transcript = path.join(work, "transcript.jsonl");
  writeFileSync(transcript, readFileSync(path.join(FIXTURES, "transcript.jsonl"), "utf8"));
  const stop = hook("Stop", "stop.json", baseURL!, { transcript_path: transcript });
  expect(stop.status, stop.stderr).toBe(0);
  // A positive follow-up, then the session ends and is credited.
  expect(
    hook("UserPromptSubmit", "user-prompt-submit.json", baseURL!, { prompt: "perfect, thanks!" })
      .status,
  ).toBe(0);
  expect(hook("Stop", "stop.json", baseURL!, { transcript_path: transcript }).status).toBe(0);
  expect(hook("SessionEnd", "session-end.json", baseURL!).status).toBe(0);

  await page.goto(`/turns?session=${session}`);
  const row = page.getByTestId(`turn-${session}-1`);
  await expect(row).toBeVisible();
  await row.getByRole("link", { name: `Turn 1 of session ${session}` }).click();
  await expect(page.getByRole("heading", { name: "Turn 1" })).toBeVisible();
  await expect(page.getByText("Add a test for the discount rounding bug")).toBeVisible();
  const file = testInfo.outputPath("turn-from-hooks.png");
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach("turn-from-hooks", { path: file, contentType: "image/png" });

  // The Session page: the follow-up's feedback, the failed call, the outcome and the credits.
  await page.goto(`/sessions/${encodeURIComponent(session)}`);
  await expect(page.getByText("explicit_positive").first()).toBeVisible();
  await expect(page.getByText(/tool_success=50%, user_sentiment=\d+%/).first()).toBeVisible();
  await expect(page.getByText(/success|partial|failure/).first()).toBeVisible();
  const sessionShot = testInfo.outputPath("session-from-hooks.png");
  await page.screenshot({ path: sessionShot, fullPage: true });
  await testInfo.attach("session-from-hooks", { path: sessionShot, contentType: "image/png" });
  await context.close();
});
