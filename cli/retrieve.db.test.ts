import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serializeOverlay } from "@/lib/constitution";
import { constitutionVersions } from "@/lib/db/constitution";
import { retrieve } from "@/lib/services/constitution";
import { fitVersion } from "@/lib/services/learned";
import { ensureBundles, lexicalCliEnv, loadedModules, TRACE_IMPORTS } from "@/test/cli-bundle";
import { setupTestDatabaseWithConstitution, testPgUrl } from "@/test/db";
import { comparable, COMPARED_PROMPTS } from "@/test/retrieve-compare";
import { EXIT } from "./errors";

// `charter retrieve` on PostgreSQL answers from one plain connection, without Prisma
// (cli/commands/retrieve.ts). These tests hold it to the server's own answer.

const BIN = path.resolve(import.meta.dirname, "../bin/charter.mjs");
const pgUrl = testPgUrl();
const work = mkdtempSync(path.join(os.tmpdir(), "charter-cli-retrieve-"));
let teardown: () => Promise<void> = async () => undefined;

function charter(args: string[], nodeArgs: string[] = []) {
  return spawnSync(process.execPath, [...nodeArgs, BIN, ...args], {
    cwd: work,
    env: lexicalCliEnv(path.join(work, "data"), pgUrl ?? ""),
    encoding: "utf8",
    timeout: 120_000,
  });
}

type Printed = {
  domains: unknown[];
  principles: { id: string }[];
  debug: { timings_ms: unknown } & Record<string, unknown>;
};

/**
 * The CLI's JSON and the service's answer, both without timings (they differ run to run)
 * and the prefilter cache's counters (they count the process's own requests).
 */
async function bothAnswers(prompt: string, domain?: string, topK?: number) {
  const result = charter([
    "retrieve",
    prompt,
    "--json",
    ...(domain ? ["--domain", domain] : []),
    ...(topK ? ["--top-k", String(topK)] : []),
  ]);
  expect(result.status, result.stderr).toBe(EXIT.ok);
  const printed = JSON.parse(result.stdout) as Printed;
  const served = await retrieve(prompt, { domain: domain ? domain.split(",") : null, topK });
  return comparable(printed, served);
}

describe.runIf(pgUrl)("charter retrieve on PostgreSQL", () => {
  beforeAll(async () => {
    // The short path's parse cache is the bundle's: a tsx run (sources newer than the bundle) has none.
    expect(ensureBundles()).toBeNull();
    ({ teardown } = await setupTestDatabaseWithConstitution());
  });
  afterAll(async () => {
    await teardown();
    rmSync(work, { recursive: true, force: true });
  });

  it.each(COMPARED_PROMPTS)(
    "answers %j (domain %s, top %s) exactly as the server's service does",
    async (prompt, domain, topK) => {
      const { cli, server } = await bothAnswers(prompt, domain, topK);
      expect(cli).toEqual(server);
    },
    60_000,
  );

  it("loads neither Prisma nor the YAML parser once the version's parse is cached", () => {
    expect(charter(["retrieve", "warm the parse cache"]).status).toBe(EXIT.ok);
    const fast = charter(
      ["retrieve", "drop the users table", "--json"],
      ["--import", TRACE_IMPORTS],
    );
    expect(fast.status, fast.stderr).toBe(EXIT.ok);
    const loaded = loadedModules(fast.stderr);
    expect(loaded.some((url) => url.includes("/node_modules/pg/"))).toBe(true);
    expect(loaded.filter((url) => /@prisma|\/prisma\/|\/yaml\//.test(url))).toEqual([]);
    // The trace does show Prisma where a command loads it: the check above can fail.
    const full = charter(["constitution", "show", "--json"], ["--import", TRACE_IMPORTS]);
    expect(full.status, full.stderr).toBe(EXIT.ok);
    expect(loadedModules(full.stderr).some((url) => url.includes("@prisma"))).toBe(true);
  }, 60_000);

  it("serves the version's learned weights once its fit is stored, as the service does", async () => {
    // Prompts of the shipped eval set that the keywords alone answer otherwise than their labels.
    const prompts = [
      "push this to main",
      "drop and recreate the orders table, the schema's all wrong",
    ];
    const before = prompts.map((prompt) => charter(["retrieve", prompt, "--json"]).stdout);
    await fitVersion((await constitutionVersions.current())!.id);
    for (const [i, prompt] of prompts.entries()) {
      const { cli, server } = await bothAnswers(prompt);
      expect(cli).toEqual(server);
      expect(charter(["retrieve", prompt, "--json"]).stdout).not.toBe(before[i]);
    }
  }, 120_000);

  it("serves a version saved after its predecessor's parse was cached", async () => {
    // A word no version has yet, so that the test also holds on a database kept from an earlier run.
    const word = `zodiac${Math.random()
      .toString(36)
      .replace(/[^a-z]/g, "")
      .slice(0, 6)}`;
    const prompt = `is my ${word} reading accurate`;
    const before = charter(["retrieve", prompt, "--json"]);
    expect(before.status, before.stderr).toBe(EXIT.ok);
    expect((JSON.parse(before.stdout) as Printed).domains).toEqual([]);
    const current = await constitutionVersions.current();
    const medical = current!.constitution.overlays.medical!;
    const saved = await constitutionVersions.saveFile(
      {
        path: "overlays/medical.yaml",
        text: serializeOverlay({ ...medical, keywords: [...medical.keywords, word] }),
        baseVersionId: current!.id,
        message: `${word} is medical now`,
        action: "save_overlay",
      },
      { id: null, label: "test-editor" },
    );
    const { cli, server } = await bothAnswers(prompt);
    expect(cli).toEqual(server);
    expect((cli.domains as { domain: string }[]).map((d) => d.domain)).toEqual(["medical"]);
    expect(charter(["retrieve", prompt]).stdout).toContain(`version ${saved.id},`);
  }, 60_000);
});
