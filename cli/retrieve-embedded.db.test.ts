import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/db/audit";
import { closeDb } from "@/lib/db/client";
import { constitutionVersions } from "@/lib/db/constitution";
import { orchestrationLog } from "@/lib/db/orchestration-log";
import { resetEnv } from "@/lib/env";
import { readConstitutionFiles, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { headFile, headFilePath } from "@/lib/files/head-file";
import { callLog, retrieve } from "@/lib/services/constitution";
import { fitVersion } from "@/lib/services/learned";
import { ensureBundles, lexicalCliEnv, loadedModules, TRACE_IMPORTS } from "@/test/cli-bundle";
import { setupEmbeddedTestDatabase } from "@/test/db";
import { comparable, COMPARED_PROMPTS } from "@/test/retrieve-compare";
import { EXIT } from "./errors";

// `charter retrieve` on the embedded database answers from the database's head file
// (lib/files/head-file.ts) through its fast bundle (cli/retrieve-fast.ts), without opening
// PGlite. This process holds the database (its lock) for most of these tests, as a running
// server would: a command that opened it would be refused, so an answer is one from the head
// file. They hold the answers to the server's own service, and the head file to every save.

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "bin", "charter.mjs");
const FAST_CACHE = path.join(ROOT, "dist", "cli", "retrieve-fast.cjs.cache");
const work = mkdtempSync(path.join(os.tmpdir(), "charter-cli-retrieve-embedded-"));
const dataDir = path.join(work, "data");
let dir = "";

function charter(args: string[], nodeArgs: string[] = []) {
  return spawnSync(process.execPath, [...nodeArgs, BIN, ...args], {
    cwd: work,
    env: lexicalCliEnv(dataDir),
    encoding: "utf8",
    timeout: 120_000,
  });
}

type Principle = { id: string; domain: string | null; overlay: string | null };
type Printed = {
  domains: { domain: string }[];
  principles: Principle[];
  debug: Record<string, unknown>;
};

function printed(args: string[]): Printed {
  const result = charter([...args, "--json"]);
  expect(result.status, result.stderr).toBe(EXIT.ok);
  return JSON.parse(result.stdout) as Printed;
}

/** The CLI's JSON and the service's answer, without timings and the prefilter cache's counters (they count a process's own requests). */
async function bothAnswers(prompt: string, domain?: string, topK?: number) {
  const cli = printed([
    "retrieve",
    prompt,
    ...(domain ? ["--domain", domain] : []),
    ...(topK ? ["--top-k", String(topK)] : []),
  ]);
  const served = await retrieve(prompt, { domain: domain ? domain.split(",") : null, topK });
  return comparable(cli, served);
}

/**
 * Lets the database go once the work a save or a fit scheduled (a store built ahead, logs)
 * is done: work left for later would open the configured database again. This file points
 * the configuration at its own directory for the same reason: such a slip must never reach
 * the repository's .charter/.
 */
async function letGo(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.all([orchestrationLog().flush(), callLog().flush()]);
  await closeDb();
}

/** A word no version has yet, so that a test holds on a database kept from an earlier run too. */
const newWord = (prefix: string) =>
  `${prefix}${Math.random()
    .toString(36)
    .replace(/[^a-z]/g, "")
    .slice(0, 6)}`;

/** Saves the version in force with `word` as one more keyword of the medical overlay. */
async function saveMedicalKeyword(word: string) {
  const current = (await constitutionVersions.current())!;
  const file = current.files.find((f) => f.path === "overlays/medical.yaml")!;
  return constitutionVersions.saveFile(
    {
      path: "overlays/medical.yaml",
      text: file.text.replace(/^keywords:\n/m, `keywords:\n  - ${word}\n`),
      baseVersionId: current.id,
      message: `${word} is medical now`,
      action: "save_overlay",
    },
    SYSTEM_ACTOR,
  );
}

describe("charter retrieve on the embedded database", () => {
  beforeAll(async () => {
    // The fast bundle is the bundle's: a tsx run (sources newer than the bundle) has none.
    expect(ensureBundles()).toBeNull();
    process.env.CHARTER_DATA_DIR = dataDir;
    resetEnv();
    ({ dir } = (await setupEmbeddedTestDatabase(dataDir)) as { dir: string });
    await constitutionVersions.importIfEmpty(
      await readConstitutionFiles(SHIPPED_CONSTITUTION_DIR),
      "shipped",
    );
  });
  afterAll(async () => {
    await letGo();
    rmSync(work, { recursive: true, force: true });
  });

  it("answers from its fast bundle, loading neither the command's bundle nor PGlite", () => {
    rmSync(FAST_CACHE, { force: true });
    const fast = charter(
      ["retrieve", "drop the users table", "--json"],
      ["--import", TRACE_IMPORTS],
    );
    expect(fast.status, fast.stderr).toBe(EXIT.ok);
    expect(
      loadedModules(fast.stderr).filter((url) => /dist\/cli\/main\.mjs|pglite|@prisma/.test(url)),
    ).toEqual([]);
    // Its code cache is kept by a run that answered.
    expect(existsSync(FAST_CACHE)).toBe(true);
  }, 60_000);

  it.each(COMPARED_PROMPTS)(
    "answers %j (domain %s, top %s) exactly as the server's service does",
    async (prompt, domain, topK) => {
      const { cli, server } = await bothAnswers(prompt, domain, topK);
      expect(cli).toEqual(server);
    },
    60_000,
  );

  it("prints the overlay that brought each principle in, and its domain label, with --json", () => {
    const { principles } = printed(["retrieve", "I have had severe headaches for three days"]);
    expect(principles.length).toBeGreaterThan(0);
    for (const p of principles) {
      expect(p).toHaveProperty("overlay");
      expect(p).toHaveProperty("domain");
    }
    expect(principles.filter((p) => p.id.startsWith("CORE.")).map((p) => p.overlay)).toEqual(
      principles.filter((p) => p.id.startsWith("CORE.")).map(() => null),
    );
    expect(principles.some((p) => p.overlay === "medical")).toBe(true);
  }, 60_000);

  it("sees a save made through the normal save path in its very next process", async () => {
    const word = newWord("zodiac");
    const prompt = `is my ${word} reading accurate`;
    expect(printed(["retrieve", prompt]).domains).toEqual([]);
    const saved = await saveMedicalKeyword(word);
    const { cli, server } = await bothAnswers(prompt);
    expect(cli).toEqual(server);
    expect(cli.domains.map((d) => d.domain)).toEqual(["medical"]);
    expect(charter(["retrieve", prompt]).stdout).toContain(`version ${saved.id},`);
  }, 60_000);

  it("waits for the head file while the process holding the database writes it", async () => {
    const word = newWord("zymurgy");
    headFile.remove(dir); // as a save in progress leaves it
    const child = spawn(process.execPath, [BIN, "retrieve", `what is ${word}`], {
      cwd: work,
      env: lexicalCliEnv(dataDir),
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const saved = await saveMedicalKeyword(word);
    expect(await exited).toBe(EXIT.ok);
    expect(stdout).toContain("domains: medical");
    expect(stdout).toContain(`version ${saved.id},`);
  }, 60_000);

  it("serves the version's learned weights once its fit is stored, as the service does", async () => {
    const current = (await constitutionVersions.current())!;
    await fitVersion(current.id);
    expect(headFile.read(dir)?.learned).not.toBeNull();
    for (const prompt of [
      "I have had severe headaches for three days",
      "can my landlord keep the deposit",
    ]) {
      const { cli, server } = await bothAnswers(prompt);
      expect(cli).toEqual(server);
    }
  }, 120_000);

  // Last: the database is let go, as when no server runs, so that the command can open it.
  it("answers from the database when the head file is missing, corrupt or torn, and writes it again", async () => {
    const current = (await constitutionVersions.current())!;
    await letGo();
    const spoils: [string, () => void][] = [
      ["missing", () => rmSync(headFilePath(dir))],
      [
        "corrupt",
        () => {
          const text = readFileSync(headFilePath(dir), "utf8");
          writeFileSync(headFilePath(dir), text.replace('"versionId":', '"versionId":1'));
        },
      ],
      ["torn", () => writeFileSync(headFilePath(dir), '{"format":1,')],
    ];
    for (const [name, spoil] of spoils) {
      spoil();
      expect(headFile.read(dir), name).toBeNull();
      const result = charter(["retrieve", "drop the users table"], ["--import", TRACE_IMPORTS]);
      expect(result.status, `${name}: ${result.stderr}`).toBe(EXIT.ok);
      expect(result.stdout, name).toContain(`version ${current.id},`);
      expect(
        loadedModules(result.stderr).some((url) => url.includes("pglite")),
        name,
      ).toBe(true);
      expect(headFile.read(dir)?.versionId, name).toBe(current.id);
    }
  }, 240_000);
});
