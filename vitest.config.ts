import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = {
  "@": path.resolve(import.meta.dirname),
  "server-only": path.resolve(import.meta.dirname, "test/empty-module.ts"),
};

const usesPostgres = Boolean(process.env.DATABASE_URL?.trim());

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
        },
      },
      {
        resolve: { alias },
        test: {
          name: "db",
          include: ["**/*.db.test.ts"],
          exclude: ["node_modules/**", ".next/**", ".next-*/**"],
          environment: "node",
          globalSetup: ["test/db-global-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // On PGlite each file copies one migrated template into a database of its own, so files run
          // two at a time (this machine has two cores; vitest's default would be one worker). On
          // PostgreSQL the files share one database, and some (the authorization matrix) watch every
          // table for changes they did not make: one at a time.
          fileParallelism: !usesPostgres,
          maxWorkers: usesPostgres ? 1 : 2,
        },
      },
    ],
  },
});
