import type { Actor } from "@/lib/db/audit";
import { keyPoints } from "@/lib/db/key-points";
import { random } from "@/lib/random";
import { agentEventSchema, type AgentEvent } from "@/lib/schemas/events";
import { DEMO_DIR, importTranscripts, transcriptFiles, type ImportSummary } from "./import";
import { ingestEvents } from "./ingest";

/**
 * The demo a newcomer loads from the Overview: the shipped Claude Code transcripts (as
 * `charter import` reads them), and a small team's month of work sent through the same
 * path the hooks take, so every page has something to show: prompts that got their
 * principles, tools that passed and failed, people who said thanks or "that's wrong"
 * (so principles are credited and have trust ratios), 30 days of scores for the charts,
 * and a playbook whose lessons were rated, one of them harmful enough to be proposed
 * for pruning. Deterministic, and idempotent: a second load adds nothing.
 */

/** How many days of history the team's sessions span, ending today. */
export const DEMO_DAYS = 30;
/** Sessions per day, before the day's own variation (0 to 2 more). */
const SESSIONS_PER_DAY = 2;
const PREFIX = "demo-team";

type Step =
  | { tool: "Edit"; file: string }
  | { tool: "Bash"; command: string; ok: boolean }
  | { tool: "Read"; file: string };
type Story = { prompt: string; steps: Step[]; reply: string; followUp: string };

/** What the team asks its agents, with how each went. */
const STORIES: readonly Story[] = [
  {
    prompt: "add input validation to the signup form and a test for it",
    steps: [
      { tool: "Read", file: "src/signup.ts" },
      { tool: "Edit", file: "src/signup.ts" },
      { tool: "Bash", command: "npm test", ok: true },
    ],
    reply: "Added validation for the email and password fields, with a test for each rule.",
    followUp: "perfect, thanks!",
  },
  {
    prompt: "fix the failing pagination test in the orders module",
    steps: [
      { tool: "Read", file: "src/orders/page.ts" },
      { tool: "Edit", file: "src/orders/page.ts" },
      { tool: "Bash", command: "npm test -- orders", ok: false },
    ],
    reply: "Changed the offset calculation; one test still fails on the last page.",
    followUp: "that's wrong, the last page is still empty",
  },
  {
    prompt: "drop the old sessions table from the production database, we don't need it",
    steps: [{ tool: "Bash", command: "psql -c '\\d sessions'", ok: true }],
    reply:
      "Before dropping it: nothing in the code reads it, but it holds 2 million rows. Take a backup first; here is the migration that drops it, to run after the backup.",
    followUp: "great, that works",
  },
  {
    prompt: "what is a safe dose of ibuprofen for a headache",
    steps: [],
    reply:
      "For adults the usual dose is 200-400 mg every 4 to 6 hours, at most 1,200 mg a day without a doctor's advice. I am not a doctor: check the label, and ask a pharmacist if you take other medicines.",
    followUp: "thanks",
  },
  {
    prompt: "write a SQL query that returns every user's email for the marketing export",
    steps: [{ tool: "Edit", file: "reports/marketing.sql" }],
    reply:
      "Here is the query; it only selects users who opted in to marketing e-mail, as the privacy policy requires.",
    followUp: "good job",
  },
  {
    prompt: "refactor the payment client to retry on timeouts",
    steps: [
      { tool: "Edit", file: "src/payments/client.ts" },
      { tool: "Bash", command: "npm test -- payments", ok: true },
      { tool: "Bash", command: "npm run lint", ok: false },
    ],
    reply: "Retries with exponential backoff, at most 3 times; lint reports an unused import.",
    followUp: "not what I asked, the retries must be idempotent",
  },
  {
    prompt: "can you check this contract clause about termination for me",
    steps: [],
    reply:
      "The clause lets either side end the contract with 30 days' notice. This is general information, not legal advice: a lawyer should review it for your situation.",
    followUp: "thanks, that helps",
  },
  {
    prompt: "add a github action that runs the tests on every pull request",
    steps: [
      { tool: "Edit", file: ".github/workflows/test.yml" },
      { tool: "Bash", command: "npx actionlint", ok: true },
    ],
    reply: "Added a workflow that installs, lints and tests on every pull request.",
    followUp: "awesome",
  },
];

/** Lessons the team's reflections wrote, and how later sessions rated each (helpful, harmful). */
const LESSONS: readonly { text: string; helpful: number; harmful: number }[] = [
  { text: "Run the full test suite before saying a change is done.", helpful: 9, harmful: 0 },
  { text: "Ask for a backup before any destructive database change.", helpful: 6, harmful: 0 },
  { text: "Prefer small commits that each pass the tests.", helpful: 4, harmful: 1 },
  {
    text: "Quote the dose range and point to a pharmacist for medicine questions.",
    helpful: 3,
    harmful: 0,
  },
  { text: "Skip linting when the tests pass, to save time.", helpful: 1, harmful: 4 },
  { text: "Retry network calls only when the operation is idempotent.", helpful: 2, harmful: 0 },
];

function toolEvent(step: Step, i: number): Record<string, unknown> {
  if (step.tool === "Bash")
    return {
      tool_name: "Bash",
      tool_input: { command: step.command },
      tool_response: step.ok
        ? { stdout: "All checks passed.", stderr: "", interrupted: false }
        : { stdout: "", stderr: "1 failing\nError: expected 10 rows, got 0", interrupted: false },
      tool_use_id: `toolu_${i}`,
    };
  if (step.tool === "Read")
    return {
      tool_name: "Read",
      tool_input: { file_path: step.file },
      tool_response: { type: "text", file: { filePath: step.file, content: "export {}" } },
      tool_use_id: `toolu_${i}`,
    };
  return {
    tool_name: "Edit",
    tool_input: { file_path: step.file, old_string: "a", new_string: "b" },
    tool_response: { filePath: step.file },
    tool_use_id: `toolu_${i}`,
  };
}

/** One session's events: the story's prompt and tools, the reply, the person's follow-up, the end. */
function sessionEvents(id: string, story: Story, start: number): AgentEvent[] {
  let at = start;
  const next = (minutes: number) => new Date((at += minutes * 60_000)).toISOString();
  const raw: Record<string, unknown>[] = [
    { type: "UserPromptSubmit", prompt: story.prompt, at: next(0), cwd: "/work/shop" },
    ...story.steps.map((step, i) => ({ type: "PostToolUse", at: next(1), ...toolEvent(step, i) })),
    { type: "Stop", response: story.reply, at: next(2) },
    { type: "UserPromptSubmit", prompt: story.followUp, at: next(3), cwd: "/work/shop" },
    { type: "Stop", response: "Glad to help.", at: next(1) },
    { type: "SessionEnd", reason: "exit", at: next(1) },
  ];
  return raw.map((e, i) => agentEventSchema.parse({ ...e, id: `${id}-e${i}`, session_id: id }));
}

/** The team's sessions over the DEMO_DAYS days before `now`, oldest first. */
export function demoTeamSessions(now: Date): { id: string; events: AgentEvent[] }[] {
  const rand = random(20261128);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const out: { id: string; events: AgentEvent[] }[] = [];
  for (let day = DEMO_DAYS - 1; day >= 0; day -= 1) {
    const count = SESSIONS_PER_DAY + Math.floor(rand() * 3);
    for (let k = 0; k < count; k += 1) {
      const story = STORIES[Math.floor(rand() * STORIES.length)]!;
      // Working hours, and never later than an hour before now.
      const start = Math.min(
        today - day * 86_400_000 + (9 + rand() * 8) * 3_600_000,
        now.getTime() - 3_600_000,
      );
      const id = `${PREFIX}-${DEMO_DAYS - day}-${k + 1}`;
      out.push({ id, events: sessionEvents(id, story, start) });
    }
  }
  return out;
}

export type DemoSummary = ImportSummary & {
  teamSessions: number;
  keyPointsAdded: string[];
  proposedForPruning: string[];
};

/** Loads the demo (see above). `actor` is who the playbook's changes are audited as. */
export async function loadDemo(actor: Actor, now: Date = new Date()): Promise<DemoSummary> {
  const imported = await importTranscripts(await transcriptFiles(DEMO_DIR), { now });
  let accepted = imported.accepted;
  let duplicates = imported.duplicates;
  const team = demoTeamSessions(now);
  for (const session of team) {
    const result = await ingestEvents(session.events, { source: "hook" });
    accepted += result.accepted;
    duplicates += result.duplicates;
  }
  const playbook = await rateLessons(
    team.map((s) => s.id),
    actor,
  );
  return {
    ...imported,
    sessions: imported.sessions + team.length,
    accepted,
    duplicates,
    teamSessions: team.length,
    keyPointsAdded: playbook.added,
    proposedForPruning: playbook.proposed,
  };
}

/**
 * The lessons, added once, then rated by the team's sessions as reflections rate them
 * (one rating per session): the harmful one crosses the prune rule and is proposed,
 * waiting for an approver. Nothing is rated again when the lessons are already there.
 */
async function rateLessons(
  sessions: string[],
  actor: Actor,
): Promise<{ added: string[]; proposed: string[] }> {
  const { added } = await keyPoints.applyExtraction(
    { new_key_points: LESSONS.map((l) => l.text), evaluations: [] },
    null,
    actor,
  );
  if (added.length !== LESSONS.length) return { added, proposed: [] };
  const proposed = new Set<string>();
  let s = 0;
  for (const [i, lesson] of LESSONS.entries()) {
    const ratings = [
      ...Array<string>(lesson.helpful).fill("helpful"),
      ...Array<string>(lesson.harmful).fill("harmful"),
    ];
    for (const rating of ratings) {
      const result = await keyPoints.applyExtraction(
        {
          new_key_points: [],
          evaluations: [{ name: added[i]!, rating }],
        },
        sessions[s++ % sessions.length]!,
        actor,
      );
      for (const name of result.proposed) proposed.add(name);
    }
  }
  return { added, proposed: [...proposed] };
}
