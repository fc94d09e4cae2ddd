import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";

/** Imports the pure engine must never make: frameworks, the database, the LLM SDK, and I/O. */
const ENGINE_FORBIDDEN = [
  { group: ["next", "next/*"], message: "The engine is pure: no Next.js." },
  {
    group: ["react", "react/*", "react-dom", "react-dom/*"],
    message: "The engine is pure: no React.",
  },
  {
    group: ["@prisma/*", "prisma", "prisma/*", "@/lib/db", "@/lib/db/*", "pg", "@electric-sql/*"],
    message: "The engine is pure: no database.",
  },
  {
    group: ["openai", "openai/*", "@/lib/llm", "@/lib/llm/*"],
    message: "The engine is pure: LLM calls go through lib/llm.",
  },
  {
    group: [
      "fs",
      "fs/*",
      "node:fs",
      "node:fs/*",
      "child_process",
      "node:child_process",
      "net",
      "node:net",
      "http",
      "node:http",
      "https",
      "node:https",
      "dgram",
      "node:dgram",
      "worker_threads",
      "node:worker_threads",
    ],
    message: "The engine is pure: no I/O.",
  },
  {
    group: [
      "@/lib/auth/*",
      "@/lib/actions/*",
      "@/lib/http/*",
      "@/lib/env",
      "@/app/*",
      "@/components/*",
    ],
    message: "The engine must not depend on the app around it.",
  },
];

const config = [
  {
    ignores: [
      ".next/**",
      ".next-*/**",
      "node_modules/**",
      "lib/db/generated/**",
      ".charter/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      "dist/**",
    ],
  },
  ...nextVitals,
  ...nextTs,
  // Layout is Prettier's (`npm run format`, checked by `prettier --check` in `npm run lint`).
  prettier,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/ban-ts-comment": "error",
      "@next/next/no-img-element": "off",
    },
  },
  {
    files: ["lib/constitution/**", "lib/reward/**", "lib/credit/**", "lib/playbook/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: ENGINE_FORBIDDEN }],
      "no-restricted-globals": [
        "error",
        { name: "process", message: "The engine is pure: configuration comes in as arguments." },
        { name: "fetch", message: "The engine is pure: no network." },
      ],
    },
  },
  {
    // Only lib/env.ts reads the environment (instrumentation.ts reads Next's own NEXT_RUNTIME;
    // the CLI sets defaults before validating; prisma.config.ts is read by the Prisma CLI).
    files: ["**/*.ts", "**/*.tsx"],
    ignores: [
      "lib/env.ts",
      "instrumentation.ts",
      "cli/runtime.ts",
      "prisma.config.ts",
      "prisma/schema-engine/**",
      "**/*.test.ts",
      "e2e/**",
      "playwright.config.ts",
      "vitest.config.ts",
      "bench/**",
      "scripts/**",
      "test/**",
    ],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Read settings through env() from lib/env.ts.",
        },
      ],
    },
  },
];
export default config;
