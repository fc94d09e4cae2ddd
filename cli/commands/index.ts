import type { Command } from "commander";

/**
 * The top-level commands, with the module that defines each. `charter --help` lists them
 * from this table alone; a command's module (and everything it imports: the engine,
 * Prisma, PGlite, OpenAI) loads only when that command runs, so a call pays for its own
 * command only. cli/anywhere.test.ts checks that the table names every command the
 * modules define.
 */
export const COMMANDS = [
  {
    usage: "serve",
    summary: "Migrate the database, build the dashboard if there is no build, and serve it",
    load: async () => (await import("./serve")).registerServe,
  },
  {
    usage: "dev",
    summary: "Migrate the database and run the dashboard in development mode (next dev)",
    load: async () => (await import("./serve")).registerServe,
  },
  {
    usage: "db",
    summary: "Database maintenance",
    load: async () => (await import("./db")).registerDb,
  },
  {
    usage: "users",
    summary: "People who can sign in",
    load: async () => (await import("./users")).registerUsers,
  },
  {
    usage: "keys",
    summary: "API keys for agents and scripts (headless setups)",
    load: async () => (await import("./keys")).registerKeys,
  },
  {
    usage: "constitution",
    summary: "Validate, show, evaluate, import and export the constitution",
    load: async () => (await import("./constitution")).registerConstitution,
  },
  {
    usage: "retrieve <prompt>",
    summary:
      "Find the domains and principles that apply to a prompt under the current constitution",
    load: async () => (await import("./retrieve")).registerRetrieve,
  },
  {
    usage: "score [file]",
    summary:
      "Score a turn (a kgents TurnResult or {action, turn_result, has_mutations, weights}) from a file or stdin",
    load: async () => (await import("./score")).registerScore,
  },
  {
    usage: "import",
    summary: "Import data into Charter",
    load: async () => (await import("./import")).registerImport,
  },
  {
    usage: "demo",
    summary: "Demo data",
    load: async () => (await import("./import")).registerImport,
  },
  {
    usage: "hooks",
    summary: "Install or remove Charter's hooks for Claude Code, Codex CLI, Gemini CLI or Cursor",
    load: async () => (await import("./hooks")).registerHooks,
  },
  {
    usage: "hook <event>",
    summary:
      "Report a Claude Code hook event (payload JSON on stdin) to the server; spools it when the server is unreachable",
    load: async () => (await import("./hooks")).registerHooks,
  },
  {
    usage: "spool",
    summary: "Events the hook could not deliver",
    load: async () => (await import("./hooks")).registerHooks,
  },
  {
    usage: "feedback",
    summary: "Classify a prompt as feedback on the previous turn (JSON on stdin)",
    load: async () => (await import("./credit")).registerCredit,
  },
  {
    usage: "credit [file]",
    summary:
      "Score a session and credit its injected principles (a SessionState from a file or stdin)",
    load: async () => (await import("./credit")).registerCredit,
  },
  {
    usage: "playbook",
    summary: "Key points with helpful/harmful counts (a playbook.json file)",
    load: async () => (await import("./playbook")).registerPlaybook,
  },
  {
    usage: "audit",
    summary: "The audit log and its hash chain",
    load: async () => (await import("./audit")).registerAudit,
  },
] as const satisfies readonly {
  usage: string;
  summary: string;
  load: () => Promise<(program: Command) => void>;
}[];

export type CommandEntry = (typeof COMMANDS)[number];

/** A command's name: the first word of its usage. */
export const commandName = (entry: CommandEntry): string => entry.usage.split(" ")[0]!;

/**
 * Defines the commands on `program`: the one named in `argv` (the words after `charter`)
 * in full, from its module; every command as its name and summary when none is named
 * (`charter`, `charter --help`, a misspelt command); `charter help <command>` loads that command, which is all the help needs.
 */
export async function registerCommands(program: Command, argv: readonly string[]): Promise<void> {
  const name = argv[0] === "help" ? argv[1] : argv[0];
  const named = COMMANDS.find((entry) => commandName(entry) === name);
  if (named) {
    (await named.load())(program);
    return;
  }
  for (const entry of COMMANDS) program.command(entry.usage).description(entry.summary);
}
