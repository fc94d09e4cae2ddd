// The stock Prisma CLI with the schema-engine stand-in (cli-tests.ts) on a fresh embedded
// PGlite directory.

import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "vitest";

import { describeBackend } from "./cli-tests";

describeBackend("an embedded PGlite directory", async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "charter-se-test-data-"));
  return {
    // No DATABASE_URL: prisma.config.ts falls back to $CHARTER_DATA_DIR/pglite.
    env: { CHARTER_DATA_DIR: dataDir },
    async cleanup() {
      const lockLeftBehind = existsSync(path.join(dataDir, "pglite.lock"));
      await rm(dataDir, { recursive: true, force: true });
      // Every engine process must have closed the directory and released its lock.
      expect(lockLeftBehind).toBe(false);
    },
  };
});
