import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, switchDatabase } from "@/lib/db/client";
import { constitutionVersions } from "@/lib/db/constitution";
import { orchestrationLog } from "@/lib/db/orchestration-log";
import { resetEnv } from "@/lib/env";
import { readConstitutionFiles, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { callLog } from "@/lib/services/constitution";
import { semanticFor } from "@/lib/services/embeddings";
import { ensureBundles } from "@/test/cli-bundle";
import { setupEmbeddedTestDatabase, testPgUrl, unique } from "@/test/db";
import { startScriptedLlmServer, type ScriptedLlmServer } from "@/test/llm-server";

// `charter retrieve` on the hybrid path (CHARTER_EMBEDDING_MODEL, embeddings from an
// OpenAI-compatible endpoint: here the scripted one, through the real openai SDK). A new
// process finds the constitution's vectors stored and is semantic from its first call.

const BIN = path.resolve(import.meta.dirname, "../bin/charter.mjs");
const pgUrl = testPgUrl();
const work = mkdtempSync(path.join(os.tmpdir(), "charter-cli-retrieve-hybrid-"));
const dataDir = path.join(work, "data");
const model = unique("embed-model");
let server: ScriptedLlmServer;

const ENDPOINT = () => ({
  OPENAI_BASE_URL: server.url,
  OPENAI_API_KEY: "sk-test",
  CHARTER_EMBEDDING_MODEL: model,
  // A bound for a loaded machine: the point here is which path answers, not how fast.
  CHARTER_EMBEDDING_TIMEOUT_MS: "10000",
});

describe("charter retrieve on the hybrid path", () => {
  beforeAll(async () => {
    expect(ensureBundles()).toBeNull();
    server = await startScriptedLlmServer(() => ({ content: "{}" }), { embeddings: () => ({}) });
    if (pgUrl) await switchDatabase({ kind: "postgres", url: pgUrl });
    else {
      // A slip that opened the configured database again must not reach the repository's .charter/.
      process.env.CHARTER_DATA_DIR = dataDir;
      await setupEmbeddedTestDatabase(dataDir);
    }
    await constitutionVersions.importIfEmpty(
      await readConstitutionFiles(SHIPPED_CONSTITUTION_DIR),
      "shipped",
    );
    Object.assign(process.env, ENDPOINT());
    resetEnv();
    // Every text of the version in force embedded and stored, as a server that served it leaves them.
    const stored = await semanticFor((await constitutionVersions.current())!, { wait: true });
    expect(stored && "index" in stored).toBe(true);
    // The command opens the embedded database itself; the logs are written before it is let go.
    await Promise.all([orchestrationLog().flush(), callLog().flush()]);
    await closeDb();
  });
  afterAll(async () => {
    for (const name of Object.keys(ENDPOINT())) delete process.env[name];
    resetEnv();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("uses the stored embeddings from its first call, asking the endpoint for the prompt's alone", async () => {
    server.embeddingRequests.splice(0);
    const prompt = "I have had severe headaches for three days";
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...ENDPOINT(),
      CHARTER_DATA_DIR: dataDir,
      DATABASE_URL: pgUrl ?? "",
    };
    delete env.CHARTER_RETRIEVAL_PATH;
    // Not spawnSync: the scripted endpoint answers from this process's event loop.
    const result = await promisify(execFile)(
      process.execPath,
      [BIN, "retrieve", prompt, "--json"],
      {
        cwd: work,
        env,
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    const { debug } = JSON.parse(result.stdout) as {
      debug: { path: string; fallbacks: unknown[] };
    };
    expect(debug.fallbacks).toEqual([]);
    expect(debug.path).toBe("hybrid");
    expect(server.embeddingRequests.map((r) => r.input)).toEqual([[prompt]]);
  }, 120_000);
});
