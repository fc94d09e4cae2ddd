import path from "node:path";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const alias = {
  "@": path.resolve(import.meta.dirname),
  "server-only": path.resolve(import.meta.dirname, "test/empty-module.ts"),
};

const usesPostgres = Boolean(process.env.DATABASE_URL?.trim());

/** db test files that start `charter serve` on the production build. */
const NEEDS_BUILD = ["test/key-check-server.db.test.ts"];

const dbProject: TestProjectInlineConfiguration["test"] = {
  environment: "node",
  globalSetup: ["test/db-global-setup.ts"],
  setupFiles: ["test/db-file-setup.ts"],
  testTimeout: 120_000,
  hookTimeout: 180_000,
  // Each file copies one migrated template into a database of its own (a PostgreSQL clone, or
  // a PGlite directory), so files run side by side. On PostgreSQL they mostly wait on the
  // server: three at a time on this two-core machine; PGlite computes in-process: two.
  maxWorkers: usesPostgres ? 3 : 2,
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["**/*.test.ts"],
          exclude: ["**/*.db.test.ts", "node_modules/**", "e2e/**", ".next/**", ".next-*/**"],
          environment: "node",
          // A bound on a hung test, not a speed budget: a busy machine (load 10 and more on two
          // cores) can take many times vitest's default 5 s for a test that is fine.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two files at a time on two cores (vitest's default leaves one core idle): many unit
          // files wait on child processes and sockets.
          maxWorkers: 2,
        },
      },
      {
        resolve: { alias },
        test: {
          ...dbProject,
          name: "db",
          include: ["**/*.db.test.ts"],
          exclude: ["node_modules/**", ".next/**", ".next-*/**", ...NEEDS_BUILD],
        },
      },
      // npm test runs these once `next build` is done (the db project runs alongside the build).
      { resolve: { alias }, test: { ...dbProject, name: "db-build", include: NEEDS_BUILD } },
    ],
  },
});
