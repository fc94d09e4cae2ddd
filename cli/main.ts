import { Command, CommanderError } from "commander";
import { VERSION } from "@/lib/version";
import { registerAudit } from "./commands/audit";
import { registerConstitution } from "./commands/constitution";
import { registerCredit } from "./commands/credit";
import { registerDb } from "./commands/db";
import { registerHooks } from "./commands/hooks";
import { registerImport } from "./commands/import";
import { registerKeys } from "./commands/keys";
import { registerPlaybook } from "./commands/playbook";
import { registerRetrieve } from "./commands/retrieve";
import { registerScore } from "./commands/score";
import { registerServe } from "./commands/serve";
import { registerUsers } from "./commands/users";
import { CliError, EXIT } from "./errors";

const program = new Command("charter")
  .description("Charter: govern AI agents with a written constitution.")
  .version(VERSION)
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

registerServe(program);
registerDb(program);
registerUsers(program);
registerKeys(program);
registerConstitution(program);
registerRetrieve(program);
registerScore(program);
registerImport(program);
registerHooks(program);
registerCredit(program);
registerPlaybook(program);
registerAudit(program);


try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    const quiet = error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help";
    process.exitCode = quiet ? EXIT.ok : EXIT.usage;
  } else if (error instanceof CliError) {
    console.error(`charter: ${error.message}`);
    process.exitCode = error.exitCode;
  } else {
    console.error(`charter: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = EXIT.invalid;
  }
}
