import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = {
  "@": path.resolve(import.meta.dirname),
  "server-only": path.resolve(import.meta.dirname, "test/empty-module.ts"),
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
          // PGlite databases are per file; PostgreSQL tests make unique data. Files still run one at a
          // time so that migrations of fresh databases do not compete for the two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
