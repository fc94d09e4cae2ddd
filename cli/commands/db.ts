import type { Command } from "commander";
import { assertEmbeddedFree, checkDatabase, migrate, prepareEnv } from "../runtime";

export function registerDb(program: Command): void {
  const db = program.command("db").description("Database maintenance");
  db.command("migrate")
    .description("Apply pending migrations to the configured database (DATABASE_URL, or the embedded one)")
    .action(async () => {
      const e = prepareEnv();
      assertEmbeddedFree(e);
      await checkDatabase(e);
      const output = await migrate();
      const applied = /No pending migrations|All migrations have been successfully applied/i.exec(output);
      console.log(applied ? `charter: ${applied[0].replace(/\.$/, "")}.` : output.trim());
    });
}
