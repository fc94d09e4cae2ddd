import { Command } from "commander";
import { vi } from "vitest";
import { registerHooks } from "@/cli/commands/hooks";

/** Runs `charter <args>` through the hooks commands in-process; resolves to what it logged. */
export async function hooksCommand(...args: string[]): Promise<string> {
  const program = new Command("charter")
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
  registerHooks(program);
  const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
  try {
    await program.parseAsync(args, { from: "user" });
    return log.mock.calls.map((c) => c.join(" ")).join("\n");
  } finally {
    log.mockRestore();
  }
}
