import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  CLAUDE_CODE,
  clipLine,
  FIRST_PROMPT_CHARS,
  projectOf,
} from "../components/sessions/session-facts";
import { DEFAULT_IDLE_MINUTES, transcriptsToEvents } from "../lib/transcripts/convert";
import { adminPage, snap } from "./state";

// After the demo is loaded, the Sessions table names each session by what a reviewer
// knows it by: its project, its first prompt, the agent, where it came from and how it
// went. The expected values are read from the shipped demo transcript itself.
test.describe.configure({ mode: "serial" });

const DEMO_FILE = path.resolve(
  import.meta.dirname,
  "..",
  "demo",
  "transcripts",
  "fix-failing-pagination-test.jsonl",
);
const demo = (() => {
  const { events } = transcriptsToEvents(
    [{ file: DEMO_FILE, text: readFileSync(DEMO_FILE, "utf8") }],
    { now: new Date(), idleMinutes: DEFAULT_IDLE_MINUTES },
  );
  const first = events.find((e) => e.type === "UserPromptSubmit");
  if (!first || first.type !== "UserPromptSubmit" || !first.cwd)
    throw new Error("the demo transcript has no prompt with a working directory");
  return { session: first.session_id, prompt: first.prompt, project: projectOf(first.cwd)! };
})();

test("the Overview loads the demo data (or it is there already)", async ({ browser }) => {
  const page = await adminPage(browser);
  await page.goto("/");
  // isVisible() does not wait: first wait for the Overview itself, which renders the button with it.
  await expect(page.getByTestId("total-turns")).toBeVisible();
  const load = page.getByRole("button", { name: "Load demo data" });
  // The button shows while a demo session is missing: on a fresh server, or after other specs scored turns.
  if (await load.isVisible()) {
    await load.click();
    // Once every demo session is stored the Overview offers the demo no more. (The button
    // itself hides at once: while loading it is named "Loading demo data…".)
    await expect(page.getByTestId("demo-slot")).toBeHidden({ timeout: 60_000 });
  }
  await page.goto("/sessions");
  await expect(page.getByTestId(`session-${demo.session}`)).toBeVisible();
  await page.context().close();
});

test("the Sessions table shows project, first prompt, agent, source and outcome of a demo session", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await page.goto("/sessions");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sessions");
  for (const column of ["Project", "First prompt", "Agent", "Source", "Outcome"]) {
    await expect(page.getByRole("columnheader", { name: column, exact: true })).toBeVisible();
  }

  const row = page.getByTestId(`session-${demo.session}`);
  const project = row.getByTestId("session-project");
  await expect(project).toHaveText(demo.project.name);
  await expect(project).toHaveAttribute("title", demo.project.path);

  const prompt = row.getByTestId("session-first-prompt");
  await expect(prompt).toHaveText(clipLine(demo.prompt, FIRST_PROMPT_CHARS));
  await expect(prompt).toHaveAccessibleName(`Session ${demo.session}`);

  // The demo transcript's entries name Claude Code's version ("version": "2.0.14").
  await expect(row.getByTestId("session-agent")).toHaveText(`${CLAUDE_CODE} 2.0.14`);
  await expect(row.getByTestId("session-source")).toHaveText("import");
  // The demo transcript ends with /exit, so the session is closed and has an outcome and its score.
  await expect(row.getByTestId("session-outcome-cell")).toHaveText(
    /^(success|partial|failure) \d\.\d{3}$/,
  );
  await snap(page, testInfo, "sessions-columns");

  await prompt.click();
  await expect(page.getByTestId("session-id")).toHaveText(demo.session);
  await expect(page.getByTestId("session-project")).toHaveText(demo.project.name);
  await expect(page.getByTestId("session-agent")).toHaveText(`${CLAUDE_CODE} 2.0.14`);
  await expect(page.getByTestId("session-source")).toHaveText("import");
  await expect(page).toHaveTitle(new RegExp(`^Session ${demo.session.slice(0, 8)}`));
  await snap(page, testInfo, "session-header");
  await page.context().close();
});
