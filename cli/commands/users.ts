import type { Command } from "commander";
import { z } from "zod";
import { baseUrl } from "@/lib/env";
import { CliError } from "../errors";
import { loadEnv, runningServerUrl, withDatabase } from "../runtime";

/** Where `users create-admin` sends people when nothing says otherwise (`charter serve`'s default). */
const DEFAULT_URL = "http://127.0.0.1:3000";

export function registerUsers(program: Command): void {
  const users = program.command("users").description("People who can sign in");
  users
    .command("create-admin")
    .description("Create an admin (or promote an existing user) and print a one-time sign-in link")
    .requiredOption("--email <email>", "the admin's e-mail address")
    .option("--name <name>", "display name", "Admin")
    .option(
      "--url <url>",
      `the dashboard's base URL, for the link (default: the running charter serve's, else BETTER_AUTH_URL, else ${DEFAULT_URL})`,
    )
    .action(async (options: { email: string; name: string; url?: string }) => {
      const email = z.email().safeParse(options.email.trim());
      if (!email.success)
        throw new CliError(`--email is not an e-mail address: "${options.email}".`);
      if (options.url && !z.url({ protocol: /^https?$/ }).safeParse(options.url).success)
        throw new CliError(`--url must be an http(s) URL (got "${options.url}").`);
      // A running server on this data directory verifies the link: its URL is the only one that works.
      const running = runningServerUrl(loadEnv());
      const url = running ?? options.url;
      await withDatabase(
        async () => {
          const { upsertAdmin, issueSignInLink } = await import("@/lib/auth/bootstrap");
          const actor = { id: null, label: "cli" };
          const result = await upsertAdmin(email.data, options.name, actor);
          const link = await issueSignInLink(email.data.toLowerCase(), actor);
          console.log(
            `${result.created ? "Created" : "Made"} ${email.data} an admin. One-time sign-in link (valid for an hour) for ${baseUrl()}:`,
          );
          console.log(link);
        },
        url ? { baseUrl: url, baseUrlWins: true } : { baseUrl: DEFAULT_URL },
      );
    });
}
