import type { Command } from "commander";
import { databaseTarget } from "@/lib/env";
import { CliError } from "../errors";
import { assertEmbeddedFree, checkDatabase, migrate, prepareEnv } from "../runtime";

const GRANT_HELP = `
Run as the tables' owner: CHARTER_MIGRATE_DATABASE_URL when set, else DATABASE_URL.
The role gets read and write on Charter's tables, but only INSERT and SELECT on
audit_log and SELECT on _prisma_migrations, plus the same on tables that later
migrations create. Run it again after upgrading Charter. Then start Charter with
DATABASE_URL connecting as that role and CHARTER_MIGRATE_DATABASE_URL as the owner.

Example:
  psql -c "CREATE ROLE charter_app LOGIN PASSWORD 'secret'"
  DATABASE_URL=postgresql://charter_owner@db/charter charter db grant-app-role charter_app

PostgreSQL only: the embedded database has one user, and the audit log's hash
chain (charter audit verify) is its protection. See docs/security.md.`;

export function registerDb(program: Command): void {
  const db = program.command("db").description("Database maintenance");
  db.command("migrate")
    .description(
      "Apply pending migrations to the configured database (CHARTER_MIGRATE_DATABASE_URL or DATABASE_URL, or the embedded one)",
    )
    .action(async () => {
      const e = prepareEnv();
      assertEmbeddedFree(e);
      await checkDatabase(e);
      const { applied } = await migrate();
      console.log(
        applied.length
          ? `charter: applied ${applied.length} migration${applied.length === 1 ? "" : "s"}: ${applied.join(", ")}.`
          : "charter: No pending migrations to apply.",
      );
    });

  db.command("grant-app-role")
    .description(
      "Give a PostgreSQL role what the app needs, with only INSERT and SELECT on the audit log",
    )
    .argument("<role>", "an existing LOGIN role, not the tables' owner")
    .addHelpText("after", GRANT_HELP)
    .action(async (role: string) => {
      const e = prepareEnv();
      if (databaseTarget(e).kind === "embedded") {
        throw new CliError(
          "grant-app-role needs PostgreSQL (DATABASE_URL): the embedded database has one user; there the audit log's hash chain is the protection (charter audit verify).",
        );
      }
      const ownerUrl = e.CHARTER_MIGRATE_DATABASE_URL ?? e.DATABASE_URL!;
      await checkDatabase({ ...e, DATABASE_URL: ownerUrl });
      const { grantAppRole } = await import("@/lib/db/app-role");
      const { AppError } = await import("@/lib/errors");
      try {
        const { statements } = await grantAppRole(ownerUrl, role);
        console.log(
          `charter: role "${role}" can now use Charter with INSERT and SELECT only on audit_log (${statements.length} statements).`,
        );
      } catch (error) {
        if (error instanceof AppError) throw new CliError(error.message);
        throw error;
      }
    });
}
