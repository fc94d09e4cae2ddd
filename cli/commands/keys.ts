import type { Command } from "commander";
import { API_KEY_SCOPES, type ApiKeyScope } from "@/lib/auth/roles";
import { createApiKeySchema } from "@/lib/schemas/api-key";
import { CliError, EXIT } from "../errors";
import { withDatabase } from "../runtime";

/** The audit log's name for changes made from the command line. */
const CLI_ACTOR = { id: null, label: "cli" } as const;

const HEADLESS_HELP = `
Keys are stored hashed; the key itself is printed once, by create. Keys made here
are owned by the first admin (CHARTER_ADMIN_EMAIL is made admin on a fresh database)
and audited as "cli".

For a first start without a shell, give the server a key in the environment instead:
  CHARTER_INIT_API_KEY=<32+ characters>  stored hashed at start unless it exists
  CHARTER_INIT_API_KEY_NAME=<name>       default "init"
  CHARTER_INIT_API_KEY_SCOPE=ingest      ingest, read, or ingest,read

Examples:
  charter keys create --name ci --scope ingest --json
  charter keys list
  charter keys revoke ci`;

/** `--scope ingest --scope read` and `--scope ingest,read` alike. */
function collectScopes(value: string, all: string[]): string[] {
  return [...all, ...value.split(",").map((s) => s.trim())];
}

function parseScopes(given: string[]): ApiKeyScope[] {
  if (given.length === 0)
    throw new CliError(`--scope is required: ${API_KEY_SCOPES.join(" or ")}.`, EXIT.usage);
  const unknown = given.filter((s) => !(API_KEY_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0)
    throw new CliError(
      `--scope must be ${API_KEY_SCOPES.join(" or ")} (got "${unknown.join(", ")}").`,
    );
  return [...new Set(given as ApiKeyScope[])];
}

function parseName(name: string): string {
  const parsed = createApiKeySchema.shape.name.safeParse(name);
  if (!parsed.success)
    throw new CliError(`--name: ${parsed.error.issues[0]?.message ?? "is not a valid name."}`);
  return parsed.data;
}

export function registerKeys(program: Command): void {
  const keys = program
    .command("keys")
    .description("API keys for agents and scripts (headless setups)")
    .addHelpText("after", HEADLESS_HELP);

  keys
    .command("create")
    .description("Create an API key and print it once")
    .requiredOption("--name <name>", "what will use the key (1 to 64 characters)")
    .option(
      "--scope <scope>",
      `${API_KEY_SCOPES.join(" or ")}; repeat or separate with commas for both`,
      collectScopes,
      [] as string[],
    )
    .option("--json", "print {id, name, scope, key}")
    .addHelpText("after", HEADLESS_HELP)
    .action(async (options: { name: string; scope: string[]; json?: boolean }) => {
      const name = parseName(options.name);
      const scopes = parseScopes(options.scope);
      await withDatabase(async () => {
        const { ensureAdmin } = await import("@/lib/auth/bootstrap");
        const { apiKeys } = await import("@/lib/db/api-keys");
        const { env } = await import("@/lib/env");
        const owner = await ensureAdmin(env().CHARTER_ADMIN_EMAIL, CLI_ACTOR);
        const created = await apiKeys.create({ name, scopes, ownerId: owner.id }, CLI_ACTOR);
        if (options.json) {
          console.log(
            JSON.stringify({ id: created.id, name, scope: scopes.join(","), key: created.key }),
          );
          return;
        }
        console.log(
          `Created API key "${name}" (${scopes.join(", ")}), id ${created.id}, owned by ${owner.email}. It is shown only now:`,
        );
        console.log(created.key);
      });
    });

  keys
    .command("list")
    .description("List API keys (never the keys themselves)")
    .option(
      "--json",
      "print [{id, name, start, scopes, enabled, createdAt, lastUsedAt, ownerEmail}]",
    )
    .action(async (options: { json?: boolean }) => {
      await withDatabase(async () => {
        const { apiKeys } = await import("@/lib/db/api-keys");
        const rows = await apiKeys.list();
        if (options.json) {
          console.log(JSON.stringify(rows));
          return;
        }
        if (rows.length === 0) {
          console.log(
            "No API keys. Create one with: charter keys create --name <name> --scope ingest",
          );
          return;
        }
        for (const row of rows) {
          const status = row.enabled ? "active " : "revoked";
          const used = row.lastUsedAt ? `used ${row.lastUsedAt.toISOString()}` : "never used";
          console.log(
            `${row.id}  ${status}  ${`${row.start ?? ""}…`.padEnd(8)}  ${row.scopes.join(",").padEnd(11)}  ${row.name}  (${used})`,
          );
        }
      });
    });

  keys
    .command("revoke <key>")
    .description(
      "Revoke an API key, by id or by name, for good (it stays listed, and is refused with 401)",
    )
    .action(async (ref: string) => {
      await withDatabase(async () => {
        const { apiKeys } = await import("@/lib/db/api-keys");
        const key = await apiKeys.resolve(ref.trim());
        const revoked = await apiKeys.revoke(key.id, CLI_ACTOR);
        console.log(
          revoked
            ? `Revoked API key "${key.name}" (${key.id}).`
            : `API key "${key.name}" (${key.id}) was already revoked.`,
        );
      });
    });
}
