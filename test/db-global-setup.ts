import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureBundles } from "./cli-bundle";
import { assertLocal, databaseUrl, migrateWithPrisma, onServer } from "./db";

/**
 * Migrates one template database per run, which each test file copies into a database of its
 * own (test/db-file-setup.ts): on PostgreSQL a database cloned from a template named after
 * DATABASE_URL's, else a PGlite directory.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The CLI tests run the bundled `charter`: a bundle older than its sources would run them
  // through tsx, correct but seconds slower per command.
  const bundles = ensureBundles();
  if (bundles) throw new Error(bundles);
  const url = process.env.DATABASE_URL?.trim();
  if (url) {
    assertLocal(url);
    const base = new URL(url).pathname.slice(1) || "charter";
    // Under PostgreSQL's 63-byte limit with the clones' suffix; the pid keeps runs apart.
    const template = `${base.slice(0, 36)}_t${process.pid}`.toLowerCase();
    const dropAll = async () => {
      const { rows } = await onServer(
        url,
        `SELECT datname FROM pg_database WHERE datname = '${template}' OR starts_with(datname, '${template}_')`,
      );
      for (const { datname } of rows as { datname: string }[])
        await onServer(url, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    };
    await dropAll();
    await onServer(url, `CREATE DATABASE "${template}"`);
    await migrateWithPrisma({ databaseUrl: databaseUrl(url, template) });
    project.provide("pgUrl", url);
    project.provide("pgTemplate", template);
    project.provide("pgliteTemplate", null);
    return dropAll;
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "charter-test-template-"));
  await migrateWithPrisma({ dataDir });
  project.provide("pgUrl", null);
  project.provide("pgTemplate", null);
  project.provide("pgliteTemplate", path.join(dataDir, "pglite"));
  return async () => rmSync(dataDir, { recursive: true, force: true });
}
