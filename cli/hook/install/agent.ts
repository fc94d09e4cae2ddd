import path from "node:path";
import { DIALECT_NAMES, type DialectName } from "../dialects/types";

/** The agents `charter hooks install --agent` knows: those `charter hook --agent` speaks to, Claude Code first (the default). */
export const AGENT_NAMES = DIALECT_NAMES;
export type AgentName = DialectName;

export type InstallScope = "project" | "user";

/** What installing changed: the agent's events whose Charter entry was added or brought up to date. */
export type Installed = { changed: string[] };

/** What uninstalling found: whether the file exists, the entries removed, and whether the file now holds nothing else. */
export type Uninstalled = { exists: boolean; removed: number; empty: boolean };

/**
 * One agent's hook settings: where they live, and how Charter's entries go in and out.
 * `base` is how the agent runs charter (see defaultBaseCommand); with a custom base,
 * uninstall also removes entries that run exactly it.
 */
export type AgentHooks = {
  name: AgentName;
  /** The agent as people know it: "Codex CLI". */
  label: string;
  /** The maker's reference for the file written. */
  docs: string;
  settingsPath(scope: InstallScope, projectDir: string, home: string): string;
  install(file: string, base: string): Installed;
  uninstall(file: string, base?: string): Uninstalled;
  /** What the user must still do or know once the hooks are in (printed after installing). */
  notes: readonly string[];
};

/** `<dir>/<folder>/<file>`, `dir` being the project or the home directory. */
export function scopedPath(folder: string, file: string) {
  return (scope: InstallScope, projectDir: string, home: string): string =>
    path.join(scope === "user" ? home : projectDir, folder, file);
}

/** The command an agent runs for one of its events: `charter hook` in the agent's own dialect. */
export function dialectCommand(base: string, agent: AgentName, event: string): string {
  return `${base} hook --agent ${agent} ${event}`;
}

/**
 * Whether a command runs `charter hook --agent <agent> <event>`: through any path to the
 * charter executable (bin/charter.mjs, bin/charter-hook.cjs or `charter` on the PATH), or
 * through `base` exactly. Any event word counts, so an entry for an event Charter no
 * longer installs is still recognised and removed.
 */
export function runsDialect(command: string, agent: AgentName, base?: string): boolean {
  if (base && command.startsWith(`${base} hook --agent ${agent} `))
    return /^\w+$/.test(command.slice(`${base} hook --agent ${agent} `.length));
  return new RegExp(
    `(?:^|[\\s/\\\\'"])charter(?:\\.mjs|-hook\\.cjs)?['"]?\\s+hook\\s+--agent(?:\\s+|=)${agent}\\s+\\w+$`,
  ).test(command);
}
