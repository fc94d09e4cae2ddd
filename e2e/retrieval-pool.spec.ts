import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { createIngestKey, readState } from "./state";

// A large batch's retrieval runs on worker threads in the production build too: the build's
// bundler once rewrote the worker into a chunk that could not load, and every batch of 999
// prompts was retrieved on the event loop, holding single hook calls back, with one warning.
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

test("a batch of 40 prompts is retrieved on the worker pool, each with its context", async ({
  browser,
  request,
}) => {
  const key = await createIngestKey(browser, `e2e-pool-${RUN}`);
  const events = Array.from({ length: 40 }, (_, i) => ({
    type: "UserPromptSubmit",
    id: `e2e-pool-${RUN}-${i}`,
    // One session: the Sessions page's first page stays with the demo's (sessions-columns.spec.ts).
    session_id: `e2e-pool-${RUN}`,
    prompt: `delete the production database backups older than ${i + 2} days`,
  }));
  const res = await request.post("/api/v1/events", {
    data: { events },
    headers: { "x-api-key": key },
  });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as {
    accepted: number;
    results: { additional_context?: string }[];
  };
  expect(body.accepted).toBe(40);
  for (const result of body.results)
    expect(result.additional_context).toContain("Charter constitution");
  const log = readFileSync(readState().logFile, "utf8");
  expect(log).not.toMatch(/retrieval runs in-process|a retrieval worker failed/);
});
