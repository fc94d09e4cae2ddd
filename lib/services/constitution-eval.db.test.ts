import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stems } from "@/lib/constitution/text";
import { constitutionVersions } from "@/lib/db/constitution";
import { resetEnv } from "@/lib/env";
import { setupTestDatabase, unique } from "@/test/db";
import { startScriptedLlmServer, type ScriptedLlmServer } from "@/test/llm-server";
import { ensureConstitution } from "./constitution";
import { evalOfVersion, hybridEvalOfVersion, previewChange } from "./constitution-eval";
import { forgetSemantic } from "./embeddings";

let teardown: () => Promise<void>;
let server: ScriptedLlmServer;

/** A stand-in embedding model: words hashed into 64 buckets, so texts sharing words point the same way. */
function bagOfWords(text: string): number[] {
  const v = new Array<number>(64).fill(0);
  for (const s of stems(text)) v[[...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 64, 7)]! += 1;
  return v;
}

const ENDPOINT = ["OPENAI_BASE_URL", "OPENAI_API_KEY", "CHARTER_EMBEDDING_MODEL"] as const;

beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
  server = await startScriptedLlmServer(() => ({ content: "{}" }), {
    embeddings: () => ({ vector: bagOfWords }),
  });
});

afterAll(async () => {
  await server.close();
  for (const name of ENDPOINT) delete process.env[name];
  resetEnv();
  forgetSemantic();
  await teardown();
});

async function current() {
  const version = await constitutionVersions.current();
  if (!version) throw new Error("no constitution");
  return version;
}

describe("eval runs per version", () => {
  it("computes a version's lexical run once and stores it", async () => {
    const version = await current();
    const run = await evalOfVersion(version.id);
    expect(run.caseCount).toBe(version.evals.cases.length);
    expect(run.metrics.cases).toBe(version.evals.cases.length);
    expect((await evalOfVersion(version.id)).createdAt).toEqual(run.createdAt);
  });

  it("measures the hybrid path beside it when the server retrieves on it, embedding the prompts once", async () => {
    for (const name of ENDPOINT) delete process.env[name];
    resetEnv();
    const version = await current();
    expect(await hybridEvalOfVersion(version.id)).toBeNull();

    process.env.OPENAI_BASE_URL = server.url;
    process.env.OPENAI_API_KEY = "sk-test";
    process.env.CHARTER_EMBEDDING_MODEL = unique("bag-of-words");
    resetEnv();
    const run = await hybridEvalOfVersion(version.id);
    if (!run || "unavailable" in run) throw new Error(`expected a run, got ${JSON.stringify(run)}`);
    expect(run.path).toBe(`hybrid:${process.env.CHARTER_EMBEDDING_MODEL}`);
    expect(run.caseCount).toBe(version.evals.cases.length);
    const prompts = server.embeddingRequests
      .flatMap((r) => r.input)
      .filter((t) => version.evals.cases.some((c) => c.prompt === t));
    expect(prompts).toHaveLength(version.evals.cases.length);

    server.embeddingRequests.splice(0);
    expect((await hybridEvalOfVersion(version.id)) as unknown).toEqual(run);
    expect(server.embeddingRequests).toEqual([]);
  });

  it("says why the hybrid path was not measured when the endpoint fails, and stores nothing", async () => {
    const version = await current();
    process.env.OPENAI_BASE_URL = "http://127.0.0.1:9/v1";
    process.env.CHARTER_EMBEDDING_MODEL = unique("unreachable");
    resetEnv();
    forgetSemantic();
    const result = await hybridEvalOfVersion(version.id);
    expect(result).toMatchObject({ unavailable: expect.any(String) });
  });
});

describe("previewChange", () => {
  it("shows the hits a draft loses and writes nothing", async () => {
    const version = await current();
    const file = version.files.find((f) => f.path === "overlays/medical.yaml")!;
    const versionsBefore = (await constitutionVersions.list()).length;
    const preview = await previewChange({
      baseVersionId: version.id,
      path: file.path,
      text: `excluded: true\n${file.text.replace(/^excluded: .*\n/m, "")}`,
      replay: 10,
    });
    expect(preview.baseVersionId).toBe(version.id);
    expect(preview.eval.lost_hits.length).toBeGreaterThan(0);
    expect(preview.eval.lost_hits.every((d) => d.before.some((id) => id.startsWith("MED.")))).toBe(
      true,
    );
    expect(preview.replay.prompts).toBeLessThanOrEqual(10);
    expect((await constitutionVersions.list()).length).toBe(versionsBefore);
  });

  it("shows what the draft's refitted learned weights would change, cross-validated", async () => {
    const version = await current();
    // A label teaching a word nothing in the constitution uses: the draft's eval set grows by its cases.
    const labels = ["my glorbix is back", "glorbix again, what now", "is glorbix contagious"]
      .map((p) => `  - {prompt: "${p}", domains: [medical], expect: [MED.DISCLAIMER.1]}`)
      .join("\n");
    const preview = await previewChange({
      baseVersionId: version.id,
      path: "eval/reviewed.yaml",
      text: `cases:\n${labels}\n`,
      replay: 0,
    });
    expect(preview.learned.folds).toBe(5);
    expect(preview.learned.draft.cases).toBe(version.evals.cases.length + 3);
    expect(preview.draft.metrics.cases).toBe(version.evals.cases.length + 3);
  });

  it("refuses an invalid draft with its issues, as a save would", async () => {
    const version = await current();
    await expect(
      previewChange({
        baseVersionId: version.id,
        path: "overlays/medical.yaml",
        text: "excluded: maybe\n",
      }),
    ).rejects.toThrow(/overlays\/medical\.yaml:1:\d+: excluded:/);
  });
});
