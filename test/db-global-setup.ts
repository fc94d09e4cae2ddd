import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { assertLocal, migrateWithPrisma } from "./db";

/** Migrates the database the db tests use, once per run. */
export default function setup(project: TestProject): () => void {
  const url = process.env.DATABASE_URL?.trim();
  if (url) {
    assertLocal(url);
    migrateWithPrisma({ databaseUrl: url });
    project.provide("pgUrl", url);
    project.provide("pgliteTemplate", null);
    return () => undefined;
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "charter-test-template-"));
  migrateWithPrisma({ dataDir });
  project.provide("pgUrl", null);
  project.provide("pgliteTemplate", path.join(dataDir, "pglite"));
  return () => rmSync(dataDir, { recursive: true, force: true });
}
