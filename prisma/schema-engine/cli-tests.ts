// End-to-end tests of the schema-engine stand-in (prisma/schema-engine/bin.mjs): the
// stock Prisma CLI, run as a child process, migrates a fresh database through the repo's
// prisma.config.ts. describeBackend() is run by one test file per backend
// (schema-engine-postgres.db.test.ts, schema-engine-pglite.db.test.ts), so that vitest runs
// the two side by side.
//
// The schema and migrations live in a temp directory (never the repo's
// prisma/schema.prisma); a temp config re-exports the repo config with the
// schema and migrations paths pointed there.

import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const prismaCli = path.join(repoRoot, "node_modules/prisma/build/index.js");
const engineBin = path.join(repoRoot, "prisma/schema-engine/bin.mjs");
const repoConfig = path.join(repoRoot, "prisma.config.ts");

/** Each test runs the prisma CLI a few times: past 120 s at load 10 with other test files beside it. */
const TIMEOUT = 300_000;

const SCHEMA = `datasource db {
  provider = "postgresql"
}

enum Role {
  ADMIN
  MEMBER
}

model Principle {
  id        Int      @id @default(autoincrement())
  title     String   @unique
  tags      String[]
  role      Role     @default(MEMBER)
  createdAt DateTime @default(now())
  notes     Note[]
}

model Note {
  id          String    @id
  body        String
  principleId Int
  principle   Principle @relation(fields: [principleId], references: [id], onDelete: Cascade)

  @@index([principleId])
}
`;

// What `prisma migrate dev` generates for SCHEMA, plus a DO block whose body
// contains semicolons: the script must reach PostgreSQL in one piece.
const INIT_MIGRATION = `-- CreateEnum
CREATE TYPE "Role" AS ENUM ('ADMIN', 'MEMBER');

-- CreateTable
CREATE TABLE "Principle" (
    "id" SERIAL NOT NULL,
    "title" TEXT NOT NULL,
    "tags" TEXT[],
    "role" "Role" NOT NULL DEFAULT 'MEMBER',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Principle_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Note" (
    "id" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "principleId" INTEGER NOT NULL,

    CONSTRAINT "Note_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Principle_title_key" ON "Principle"("title");

-- CreateIndex
CREATE INDEX "Note_principleId_idx" ON "Note"("principleId");

-- AddForeignKey
ALTER TABLE "Note" ADD CONSTRAINT "Note_principleId_fkey" FOREIGN KEY ("principleId") REFERENCES "Principle"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Custom: semicolons inside a dollar-quoted body.
DO $$
BEGIN
  PERFORM 1;
  RAISE NOTICE 'still; one statement';
END
$$;
`;

// A second, hand-written migration and the schema it leads to.
const SCHEMA_V2 = SCHEMA.replace(
  "  createdAt DateTime @default(now())\n",
  "  createdAt DateTime @default(now())\n  weight    Int      @default(1)\n",
);
const WEIGHT_MIGRATION = `-- AlterTable
ALTER TABLE "Principle" ADD COLUMN     "weight" INTEGER NOT NULL DEFAULT 1;
`;

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A throwaway project: schema, migrations and a config re-exporting the repo's. */
async function createProject() {
  const dir = await mkdtemp(path.join(tmpdir(), "charter-se-test-"));
  const migrations = path.join(dir, "migrations");
  await mkdir(path.join(migrations, "20250101000000_init"), { recursive: true });
  await writeFile(path.join(dir, "schema.prisma"), SCHEMA);
  await writeFile(path.join(migrations, "migration_lock.toml"), 'provider = "postgresql"\n');
  await writeFile(path.join(migrations, "20250101000000_init", "migration.sql"), INIT_MIGRATION);
  const config = path.join(dir, "prisma.config.ts");
  await writeFile(
    config,
    `import base from ${JSON.stringify(repoConfig)};\n` +
      `export default { ...base, schema: ${JSON.stringify(path.join(dir, "schema.prisma"))}, ` +
      `migrations: { ...base.migrations, path: ${JSON.stringify(migrations)} } };\n`,
  );
  return { dir, migrations, schema: path.join(dir, "schema.prisma"), config };
}

type Project = Awaited<ReturnType<typeof createProject>>;

/** Runs the stock Prisma CLI against a project with the given database environment. */
function prisma(
  project: Project,
  dbEnv: Record<string, string>,
  args: string[],
): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...dbEnv };
  if (!("DATABASE_URL" in dbEnv)) delete env.DATABASE_URL;
  delete env.FORCE_COLOR;
  Object.assign(env, {
    // The stand-in under test, even if a real binary is configured elsewhere.
    PRISMA_SCHEMA_ENGINE_BINARY: engineBin,
    CHECKPOINT_DISABLE: "1",
    NO_COLOR: "1",
  });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [prismaCli, ...args, "--config", project.config], {
      cwd: project.dir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The stock Prisma CLI's migrate commands on one backend, in order: deploy to an empty
 * database, diff against it, then `migrate dev` with a pending migration and `migrate status`.
 * `setup` makes the empty database and the environment that points the config at it.
 * `offlineDiff` adds `migrate diff` between an empty schema and a schema file: bin.mjs
 * answers that on an offline adapter, touching no database, so one backend's file runs it.
 */
export function describeBackend(
  name: string,
  setup: () => Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>,
  { offlineDiff = false }: { offlineDiff?: boolean } = {},
) {
  describe(`prisma CLI with the schema-engine stand-in on ${name}`, () => {
    let project: Project;
    let env: Record<string, string>;
    let cleanup = async () => {};

    beforeAll(async () => {
      project = await createProject();
      ({ env, cleanup } = await setup());
    }, TIMEOUT);

    afterAll(async () => {
      await cleanup();
      if (project) await rm(project.dir, { recursive: true, force: true });
    }, TIMEOUT);

    const run = async (...args: string[]) => {
      const result = await prisma(project, env, args);
      // Shown by vitest when an expectation below fails.
      expect
        .soft(result.stderr, `stderr of prisma ${args.join(" ")}`)
        .not.toMatch(/unhandled rejection/i);
      return result;
    };

    it(
      "migrate deploy applies the migration to an empty database",
      async () => {
        const result = await run("migrate", "deploy");
        expect(result.stdout + result.stderr).toContain("20250101000000_init");
        expect(result.stdout).toContain("All migrations have been successfully applied.");
        expect(result.code).toBe(0);
      },
      TIMEOUT,
    );

    if (offlineDiff)
      it(
        "migrate diff prints SQL, and only SQL, on stdout",
        async () => {
          const result = await run(
            "migrate",
            "diff",
            "--from-empty",
            "--to-schema",
            project.schema,
            "--script",
          );
          expect(result.code).toBe(0);
          expect(result.stdout).toContain(`CREATE TABLE "Principle"`);
          expect(result.stdout).toContain(`CREATE TYPE "Role" AS ENUM ('ADMIN', 'MEMBER');`);
          expect(result.stdout).not.toContain("Prisma config");
        },
        TIMEOUT,
      );

    it(
      "migrate diff against the live database finds it identical to the schema",
      async () => {
        // Introspects the database: exercises the catalog queries ("char"/name columns).
        const result = await run(
          "migrate",
          "diff",
          "--from-config-datasource",
          "--to-schema",
          project.schema,
          "--script",
          "--exit-code",
        );
        expect(result.stdout).toContain("This is an empty migration.");
        expect(result.code).toBe(0);
      },
      TIMEOUT,
    );

    it(
      "migrate dev applies a pending migration and checks the schema on a shadow database; status finds it up to date",
      async () => {
        // Pending migrations at `migrate dev` time are what used to fail with
        // "PostgreSQL shadow DB must be provided through an external factory".
        await mkdir(path.join(project.migrations, "20250102000000_weight"));
        await writeFile(
          path.join(project.migrations, "20250102000000_weight", "migration.sql"),
          WEIGHT_MIGRATION,
        );
        await writeFile(project.schema, SCHEMA_V2);

        const result = await run("migrate", "dev", "--name", "unused");
        expect(result.stdout).toContain("20250102000000_weight");
        expect(result.stdout).toMatch(/in sync/);
        expect(result.code).toBe(0);
        // Nothing new to generate: the directory still holds exactly the two migrations.
        expect(
          (await readdir(project.migrations)).filter((entry) => entry !== "migration_lock.toml"),
        ).toEqual(["20250101000000_init", "20250102000000_weight"]);

        // Status reads the history both deploy and dev recorded.
        const status = await run("migrate", "status");
        expect(status.stdout).toContain("Database schema is up to date!");
        expect(status.code).toBe(0);
      },
      TIMEOUT,
    );
  });
}
