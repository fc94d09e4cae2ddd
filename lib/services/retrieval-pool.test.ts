import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConstitutionStore } from "@/lib/constitution";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { REPO_ROOT } from "@/lib/paths";
import {
  closeRetrievalPool,
  lexicalRetrieval,
  POOL_THRESHOLD,
  poolStatus,
  retrieveLexicalMany,
} from "./retrieval-pool";

let store: ConstitutionStore;
beforeAll(async () => {
  // The worker bundle as `npm install` builds it (scripts/build-retrieval-worker.mjs).
  const built = spawnSync(
    process.execPath,
    [path.join(REPO_ROOT, "scripts", "build-retrieval-worker.mjs")],
    { encoding: "utf8", timeout: 120_000 },
  );
  expect(built.status, built.stderr).toBe(0);
  const loaded = await loadConstitution(SHIPPED_CONSTITUTION_DIR);
  if (!loaded.ok) throw new Error("the shipped constitution does not parse");
  store = new ConstitutionStore(loaded.constitution, { context_budget_chars: 2_000 });
}, 180_000);
afterAll(() => closeRetrievalPool());

const prompts = (n: number, tag: string) =>
  Array.from(
    { length: n },
    (_, i) =>
      [
        `fix the failing login test in my repo (${tag} ${i})`,
        `write a SQL injection test for my own login form ${i}`,
        `refactor the payment module ${i} and keep the API stable`,
        `delete the production database backups from last year ${i}`,
      ][i % 4]!,
  );

describe("the retrieval worker pool", () => {
  it("gives a large batch the same principles and context as retrieval in this thread, off the event loop", async () => {
    const batch = prompts(POOL_THRESHOLD * 3 + 1, "large");
    const pooled = await retrieveLexicalMany(store, 7, batch);
    expect(poolStatus()).toEqual({ workers: expect.any(Number), off: null });
    expect(poolStatus().workers).toBeGreaterThan(0);
    expect(pooled).toEqual(batch.map((p) => lexicalRetrieval(store, 7, p)));
    expect(pooled.filter((r) => r.principles.length > 0).length).toBeGreaterThan(batch.length / 2);
    expect(pooled[0]!.context).toMatch(/^Charter constitution \(version 7\)/);
  });

  it("sends a worker the new version when the version changes", async () => {
    const other = new ConstitutionStore(store.constitution, { context_budget_chars: 400 });
    const batch = prompts(POOL_THRESHOLD, "version");
    const pooled = await retrieveLexicalMany(other, 8, batch);
    expect(pooled).toEqual(batch.map((p) => lexicalRetrieval(other, 8, p)));
    expect(pooled[0]!.context).toMatch(/^Charter constitution \(version 8\)/);
  });

  it("retrieves a small batch in this thread", async () => {
    const batch = prompts(3, "small");
    expect(await retrieveLexicalMany(store, 7, batch)).toEqual(
      batch.map((p) => lexicalRetrieval(store, 7, p)),
    );
  });
});
