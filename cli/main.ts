import { Command, CommanderError } from "commander";
import { VERSION } from "@/lib/version";
import { registerCommands } from "./commands";
import { CliError, EXIT } from "./errors";

const program = new Command("charter")
  .description("Charter: govern AI agents with a written constitution.")
  .version(VERSION)
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

try {
  await registerCommands(program, process.argv.slice(2));
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    const quiet =
      error.code === "commander.helpDisplayed" ||
      error.code === "commander.version" ||
      error.code === "commander.help";
    process.exitCode = quiet ? EXIT.ok : EXIT.usage;
  } else if (error instanceof CliError) {
    console.error(`charter: ${error.message}`);
    process.exitCode = error.exitCode;
  } else {
    console.error(
      `charter: unexpected error: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exitCode = EXIT.invalid;
  }
}
