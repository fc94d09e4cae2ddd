import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEARNED_FORMAT, type EvalMetrics, type LearnedModel } from "@/lib/constitution";
import { readConstitutionFiles, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { headFile } from "@/lib/files/head-file";
import { setupEmbeddedTestDatabase } from "@/test/db";
import { SYSTEM_ACTOR } from "./audit";
import { closeDb } from "./client";
import { constitutionVersions } from "./constitution";
import { constitutionModels } from "./constitution-models";
import { headFileWrites } from "./head-file-writes";
import { contentHash } from "./version-parse";

// The head file of the embedded database (lib/files/head-file.ts) is what `charter retrieve`
// answers from: it must never name an older version than the database's, whatever happens
// to a save. cli/retrieve-embedded.db.test.ts runs the command against it.

const work = mkdtempSync(path.join(os.tmpdir(), "charter-head-writes-"));
let dir = "";

/** The shipped constitution with one more keyword in the medical overlay. */
async function edited(word: string) {
  const current = (await constitutionVersions.current())!;
  const file = current.files.find((f) => f.path === "overlays/medical.yaml")!;
  return {
    current,
    text: file.text.replace(/^keywords:\n/m, `keywords:\n  - ${word}\n`),
  };
}

describe("the embedded database's head file, kept by saves and fits", () => {
  beforeAll(async () => {
    ({ dir } = (await setupEmbeddedTestDatabase(path.join(work, "data"))) as { dir: string });
    await constitutionVersions.importIfEmpty(
      await readConstitutionFiles(SHIPPED_CONSTITUTION_DIR),
      "shipped",
    );
  });
  afterAll(async () => {
    await closeDb();
    rmSync(work, { recursive: true, force: true });
  });

  it("names the version a save made, with its files, before the save returns", async () => {
    const { current, text } = await edited("zygoma");
    const saved = await constitutionVersions.saveFile(
      {
        path: "overlays/medical.yaml",
        text,
        baseVersionId: current.id,
        message: "zygoma",
        action: "save_overlay",
      },
      SYSTEM_ACTOR,
    );
    const head = headFile.read(dir)!;
    expect(head.versionId).toBe(saved.id);
    const version = await constitutionVersions.get(saved.id);
    expect(head.files()).toEqual(version.files);
    expect(head.contentHash).toBe(contentHash(version.files));
    expect(head.learned).toBeNull();
    expect(head.migrations.length).toBeGreaterThan(0);
  });

  it("is gone while a write runs, so a crash in it leaves no file naming the version before", async () => {
    expect(headFile.read(dir)).not.toBeNull();
    const seen = await headFileWrites.changing(async () => headFile.read(dir));
    expect(seen).toBeNull();
    expect(headFile.read(dir)?.versionId).toBe((await constitutionVersions.current())!.id);
  });

  it("names the version in force again after a save that failed", async () => {
    const { current, text } = await edited("zymurgy");
    await expect(
      constitutionVersions.saveFile(
        {
          path: "overlays/medical.yaml",
          text,
          baseVersionId: current.id - 1,
          message: "stale base",
          action: "save_overlay",
        },
        SYSTEM_ACTOR,
      ),
    ).rejects.toThrow(/was saved after/);
    expect(headFile.read(dir)?.versionId).toBe(current.id);
  });

  it("carries a fit's learned weights once the fit is stored", async () => {
    const { id } = (await constitutionVersions.current())!;
    const model: LearnedModel = {
      format: LEARNED_FORMAT,
      cases: 2,
      domains: { medical: { bias: -0.5, weights: { zygoma: 1.5 } } },
      principles: {},
      prompts: {},
    };
    const metrics = {} as EvalMetrics;
    await constitutionModels.put({
      versionId: id,
      model,
      folds: 2,
      keywords: metrics,
      crossValidated: metrics,
      fitMs: 1,
    });
    const head = headFile.read(dir)!;
    expect(head.versionId).toBe(id);
    expect(head.learned).toEqual(model);
  });
});
