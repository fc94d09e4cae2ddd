import { writeFileSync } from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { PRUNE_RULE, ruleWithCounts } from "../components/playbook/format";
import { adminPage, snap } from "./state";

// A legacy playbook.json is imported and migrated, an extraction pushes one entry over
// the prune rule, an approver prunes it and undoes that; a second proposal is rejected.
// Later steps depend on earlier ones. Texts are unique per run; names are read from the page.
test.describe.configure({ mode: "serial" });

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const SESSION = `e2e-playbook-${RUN}`;
const TEXT = {
  bare: `Use type hints (${RUN})`,
  noCounters: `Prefer pathlib (${RUN})`,
  scored: `Avoid globals (${RUN})`,
  canonical: `Write tests (${RUN})`,
  added: `Use structured logging instead of print statements (${RUN})`,
} as const;
/** The playbook spec's mixed example: a bare string, a dict without counters, a dict with a score, a canonical dict. */
const LEGACY = {
  version: "1.0",
  last_updated: "2026-01-15T10:00:00",
  key_points: [
    TEXT.bare,
    { name: "kpt_002", text: TEXT.noCounters },
    { name: "kpt_003", text: TEXT.scored, score: -2 },
    { name: "kpt_004", text: TEXT.canonical, helpful: 0, harmful: 1 },
  ],
};
const names: Partial<Record<keyof typeof TEXT, string>> = {};

const row = (page: Page, text: string) => page.locator("tr[data-status]").filter({ hasText: text });
const nameOf = (key: keyof typeof TEXT) => {
  const name = names[key];
  if (!name) throw new Error(`no name read for ${key}`);
  return name;
};

async function openPlaybook(page: Page) {
  await page.goto("/playbook");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Playbook");
}

async function proposalCount(page: Page): Promise<number> {
  return Number(await page.getByTestId("prune-queue-link").getAttribute("data-count"));
}

async function applyExtraction(page: Page, extraction: unknown, sessionId = "") {
  await page.getByRole("tab", { name: "Paste JSON" }).click();
  await page.getByLabel("ExtractionResult JSON").fill(JSON.stringify(extraction, null, 2));
  await page.getByLabel("Session id").fill(sessionId);
  await page.getByRole("button", { name: "Apply extraction", exact: true }).click();
  await expect(page.getByTestId("extraction-result")).toBeVisible();
}

/** Clicks a button that asks first (ConfirmButton), checks the question, and confirms. */
async function confirmInline(
  page: Page,
  scope: Page | Locator,
  button: string,
  confirm: string,
  question: string | RegExp,
) {
  await scope.getByRole("button", { name: button }).click();
  const asked = scope
    .getByRole("group")
    .filter({ has: page.getByRole("button", { name: confirm, exact: true }) });
  await expect(asked).toContainText(question);
  await asked.getByRole("button", { name: confirm, exact: true }).click();
}

test("a legacy playbook.json is imported through the page and migrated", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await openPlaybook(page);
  const file = testInfo.outputPath("legacy.json");
  writeFileSync(file, JSON.stringify(LEGACY, null, 2));
  await page
    .getByRole("form", { name: "Import playbook.json" })
    .locator('input[type="file"]')
    .setInputFiles(file);
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const result = page.getByTestId("import-result");
  await expect(result).toBeVisible();
  const created = Number(await result.getByTestId("import-created").textContent());
  const updated = Number(await result.getByTestId("import-updated").textContent());
  expect(created + updated).toBe(LEGACY.key_points.length);
  await expect(result).toContainText("No warnings.");

  for (const key of ["bare", "noCounters", "scored", "canonical"] as const) {
    await expect(row(page, TEXT[key])).toHaveCount(1);
    names[key] = (await row(page, TEXT[key]).getAttribute("data-name")) ?? undefined;
  }
  // Names given in the file are kept; the bare string got a generated one.
  expect(names.scored).toBe("kpt_003");
  expect(names.bare).toMatch(/^kpt_\d{3,}$/);

  const scored = row(page, TEXT.scored);
  await expect(scored.getByTestId("helpful")).toHaveText("0");
  await expect(scored.getByTestId("harmful")).toHaveText("2");
  await expect(scored.getByTestId("trust")).toHaveText("0.000");
  await expect(scored).toHaveAttribute("data-status", "active");
  await expect(row(page, TEXT.bare).getByTestId("harmful")).toHaveText("0");
  await expect(row(page, TEXT.bare).getByTestId("trust")).toHaveText("—");
  await expect(row(page, TEXT.canonical).getByTestId("harmful")).toHaveText("1");

  await page.getByText("Formatted for agents").click();
  await expect(page.getByTestId("agent-format")).toContainText(
    `[${nameOf("scored")}] helpful=0 harmful=2 :: ${TEXT.scored}`,
  );
  await snap(page, testInfo, "playbook-imported");
  await page.context().close();
});

test("an extraction rates the migrated entry harmful and adds a point; the entry is proposed", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await openPlaybook(page);
  const before = await proposalCount(page);
  await applyExtraction(
    page,
    { new_key_points: [TEXT.added], evaluations: [{ name: nameOf("scored"), rating: "harmful" }] },
    SESSION,
  );
  await expect(page.getByTestId("extraction-evaluated")).toHaveText("Counted 1 rating.");
  await expect(page.getByTestId("extraction-proposed")).toContainText(nameOf("scored"));
  await expect(page.getByTestId("extraction-added")).toContainText("kpt_");

  await expect(page.getByTestId("prune-queue-link")).toHaveAttribute(
    "data-count",
    String(before + 1),
  );
  const scored = row(page, TEXT.scored);
  await expect(scored).toHaveAttribute("data-status", "proposed");
  await expect(scored.getByTestId("harmful")).toHaveText("3");
  await expect(row(page, TEXT.added)).toHaveCount(1);
  names.added = (await row(page, TEXT.added).getAttribute("data-name")) ?? undefined;
  await expect(page.getByTestId("extraction-added")).toContainText(nameOf("added"));
  await expect(row(page, TEXT.added).getByTestId("trust")).toHaveText("—");
  await snap(page, testInfo, "playbook-extraction");
  await page.context().close();
});

test("the prune queue shows the evidence; approving prunes the entry and Undo, as it still meets the rule, puts it back in the queue", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await openPlaybook(page);
  await page.getByTestId("prune-queue-link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Prune queue");

  const name = nameOf("scored");
  const proposal = page.getByTestId(`proposal-${name}`);
  await expect(proposal).toContainText(TEXT.scored);
  await expect(proposal.getByTestId("counts")).toHaveText("helpful 0, harmful 3");
  await expect(proposal.getByTestId("rule")).toContainText(PRUNE_RULE);
  await expect(proposal.getByTestId("rule")).toContainText(
    ruleWithCounts({ helpful: 0, harmful: 3 }),
  );
  await expect(proposal.getByTestId("rule")).toContainText("meets the rule");
  // One harmful event from the extraction, tied to its session; the other two came with the import.
  const events = proposal.getByTestId("evaluation");
  await expect(events).toHaveCount(1);
  await expect(events.first()).toContainText("harmful");
  await expect(events.first().getByRole("link")).toHaveAttribute(
    "href",
    `/sessions/${encodeURIComponent(SESSION)}`,
  );
  await expect(proposal.getByTestId("evidence")).toContainText(
    "2 ratings of the counts came without events",
  );
  await snap(page, testInfo, "prune-queue");

  await confirmInline(page, proposal, `Approve pruning ${name}`, "Prune it", name);
  await expect(proposal).toHaveCount(0);
  const pruned = page.getByTestId(`pruned-${name}`);
  await expect(pruned).toContainText(TEXT.scored);
  await snap(page, testInfo, "prune-approved");

  await pruned.getByRole("button", { name: `Undo pruning ${name}` }).click();
  await expect(pruned).toHaveCount(0);

  // Still helpful 0, harmful 3: undone, it waits in the queue again instead of going back into use.
  await expect(page.getByTestId(`proposal-${name}`)).toContainText(TEXT.scored);
  await openPlaybook(page);
  const restored = row(page, TEXT.scored);
  await expect(restored).toHaveAttribute("data-status", "proposed");
  await expect(restored.getByTestId("harmful")).toHaveText("3");
  await snap(page, testInfo, "playbook-undone");
  await page.context().close();
});

test("a second entry meets the rule; rejecting the proposal keeps it active", async ({
  browser,
}, testInfo) => {
  const page = await adminPage(browser);
  await openPlaybook(page);
  const name = nameOf("canonical");
  const harmful = { name, rating: "harmful" };
  await applyExtraction(page, { new_key_points: [], evaluations: [harmful, harmful, harmful] });
  await expect(page.getByTestId("extraction-evaluated")).toHaveText("Counted 3 ratings.");
  await expect(page.getByTestId("extraction-proposed")).toContainText(name);
  await expect(row(page, TEXT.canonical)).toHaveAttribute("data-status", "proposed");

  await page.getByTestId("prune-queue-link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Prune queue");
  const proposal = page.getByTestId(`proposal-${name}`);
  await expect(proposal.getByTestId("counts")).toHaveText("helpful 0, harmful 4");
  await expect(proposal.getByTestId("evaluation")).toHaveCount(3);
  await expect(proposal.getByTestId("evaluation").first()).toContainText("no session");
  await proposal.getByRole("checkbox", { name: `Select ${name}` }).check();
  await snap(page, testInfo, "prune-queue-selected");

  await confirmInline(page, page, "Reject selected", "Keep 1", `Keep ${name}`);
  await expect(proposal).toHaveCount(0);
  await expect(page.getByTestId(`pruned-${name}`)).toHaveCount(0);

  await openPlaybook(page);
  const kept = row(page, TEXT.canonical);
  await expect(kept).toHaveAttribute("data-status", "active");
  await expect(kept.getByTestId("harmful")).toHaveText("4");
  await snap(page, testInfo, "playbook-rejected");
  await page.context().close();
});
