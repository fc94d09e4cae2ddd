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

/**
 * The engine reaches nothing in lib/ but itself, lib/errors and lib/json-reply (both
 * pure), so it cannot reach I/O through another module either.
 */
const ENGINE_ONLY = {
  regex: "^@/lib/(?!(constitution|reward|credit|playbook)(/|$)|errors$|json-reply$)",
  message:
    "The engine imports only the engine, lib/errors and lib/json-reply: anything else in lib/ may reach I/O.",
};

/** The database client and driver: only lib/db touches them; everything else goes through a repository. */
const DATABASE_CLIENT = [
  {
    group: ["@/lib/db/client", "**/db/client"],
    message: "Only lib/db touches the database client: read and write through a lib/db repository.",
  },
  {
    group: ["@/lib/db/generated", "@/lib/db/generated/**", "**/db/generated/**"],
    message:
      "Prisma's generated client and types stay in lib/db: use a repository and its row types.",
  },
  {
    group: ["@prisma/client", "@prisma/client/*"],
    message: "Only lib/db touches Prisma: read and write through a lib/db repository.",
  },
  { group: ["pg", "pg/*"], message: "Only lib/db talks to PostgreSQL: use a lib/db repository." },
];

/**
 * The layers, top to bottom: app/ and components/ (pages) -> lib/actions and lib/http
 * (the ways in for people and machines) -> lib/services -> lib/db -> the engine. A layer
 * imports only the layers under it; lib/schemas and lib/errors (and the role list,
 * lib/auth/roles) are usable by all. Each pattern catches the `@/` alias and a relative
 * path alike.
 */
const relative = (folder) =>
  folder.startsWith("lib/") ? `(lib/)?${folder.slice("lib/".length)}` : folder;
const layer = (folder, message) => ({
  regex: `^(@/${folder}|(\\.\\./)+${relative(folder)})(/|$)`,
  message,
});
const ABOVE_SERVICES = [
  layer("app", "Only pages import app/: a layer imports only the layers under it."),
  layer("components", "Only pages import components/: a layer imports only the layers under it."),
  layer("lib/actions", "lib/actions is a way in (server actions): a lower layer never imports it."),
  layer("lib/http", "lib/http is a way in (route handlers): a lower layer never imports it."),
];
const ABOVE_DB = [
  ...ABOVE_SERVICES,
  layer("lib/services", "lib/services sits above lib/db: a lower layer never imports it."),
];
/**
 * lib/auth (sessions, keys, page guards) sits at the services' level: it reads lib/db. From
 * lib/db only its role list and the Better Auth instance (which keeps the keys) are reached.
 */
const AUTH_FROM_BELOW = {
  regex: "^(@/lib/|(\\.\\./)+(lib/)?)auth/(?!roles$|auth$)",
  message:
    "Only lib/auth/roles (and, in lib/db, lib/auth/auth) may be imported from below the ways in.",
};
const AUTH_FROM_SCHEMAS = {
  regex: "^(@/lib/|(\\.\\./)+(lib/)?)auth/(?!roles$)",
  message: "lib/schemas may import lib/auth/roles only.",
};
const DB_FROM_BELOW = layer("lib/db", "lib/db sits above this layer: it never imports lib/db.");

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
    // lib/db is the only code that touches the database client. The exceptions, each for a reason:
    files: ["**/*.ts", "**/*.tsx", "**/*.mts", "**/*.mjs"],
    ignores: [
      // The database layer itself.
      "lib/db/**",
      // Better Auth's Prisma adapter is handed the process's client (it runs its own queries).
      "lib/auth/auth.ts",
      // checkDatabase reads the migration state over pg, before any repository may be used.
      "cli/runtime.ts",
      // Tests set up and inspect rows directly, and point the process at their own database.
      "**/*.db.test.ts",
      "test/**",
      // Benchmarks seed and measure the database itself.
      "bench/**",
      // The end-to-end setup creates and migrates its database.
      "e2e/**",
      // Read by the Prisma CLI; the schema engine adapters are Prisma's own tooling.
      "prisma.config.ts",
      "prisma/**",
    ],
    rules: { "no-restricted-imports": ["error", { patterns: DATABASE_CLIENT }] },
  },
  {
    // The UI never reaches into lib/db: the row and view types it needs come from lib/schemas.
    files: ["components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...DATABASE_CLIENT,
            {
              group: ["@/lib/db", "@/lib/db/*", "**/lib/db/*"],
              message:
                "Components do not import lib/db: take row and view types from lib/schemas (e.g. lib/schemas/session-rows.ts).",
            },
            layer("app", "Components do not import pages (app/)."),
            layer(
              "lib/services",
              "Components call server actions (lib/actions), never a service: view types live in lib/schemas.",
            ),
            layer("lib/http", "Components do not import route handlers' code (lib/http)."),
          ],
        },
      ],
    },
  },
  {
    // The layers (see ABOVE_SERVICES): each folder imports only what is under it.
    files: ["lib/actions/**", "lib/http/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [...DATABASE_CLIENT, ...ABOVE_SERVICES.slice(0, 2)] },
      ],
    },
  },
  {
    files: ["lib/auth/**"],
    ignores: ["**/*.test.ts", "lib/auth/auth.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [...DATABASE_CLIENT, ...ABOVE_SERVICES] }],
    },
  },
  {
    files: ["lib/services/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [...DATABASE_CLIENT, ...ABOVE_SERVICES] }],
    },
  },
  {
    files: ["lib/db/**"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [...ABOVE_DB, AUTH_FROM_BELOW] }] },
  },
  {
    files: ["lib/schemas/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [...DATABASE_CLIENT, ...ABOVE_DB, AUTH_FROM_SCHEMAS, DB_FROM_BELOW] },
      ],
    },
  },
  {
    // Helpers the services use: reading constitution files, the LLM client, transcripts, OTLP spans.
    files: ["lib/files/**", "lib/llm/**", "lib/transcripts/**", "lib/otel/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [...DATABASE_CLIENT, ...ABOVE_DB, AUTH_FROM_SCHEMAS, DB_FROM_BELOW] },
      ],
    },
  },
  {
    files: ["lib/constitution/**", "lib/reward/**", "lib/credit/**", "lib/playbook/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [...ENGINE_FORBIDDEN, ENGINE_ONLY] }],
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
      "cli/environment.ts",
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
