import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CliError } from "../errors";
import { CLAUDE_INSTALLED_EVENTS, HOOK_EVENTS, type HookEventName } from "./events";

/** Seconds Claude Code gives each hook before killing it; the hook itself answers within 1 s. */
export const HOOK_TIMEOUT_SECONDS = 5;
/** PostToolUse matches tool names ("*": every tool); the other events take no matcher. */
export const HOOK_MATCHERS: Record<HookEventName, string> = {
  SessionStart: "",
  UserPromptSubmit: "",
  PostToolUse: "*",
  Stop: "",
  SessionEnd: "",
};

/**
 * The hooks' own entry, bin/charter-hook.cjs: `charter hook` as CommonJS, which starts
 * faster than bin/charter.mjs (an ES module) on every call.
 */
export const CHARTER_HOOK_BIN = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "bin",
  "charter-hook.cjs",
);

type HookEntry = { type?: unknown; command?: unknown; timeout?: unknown; [key: string]: unknown };
type MatcherGroup = { matcher?: unknown; hooks?: unknown; [key: string]: unknown };
export type ClaudeSettings = { hooks?: Record<string, unknown>; [key: string]: unknown };

/** Quotes a word for the POSIX shell Claude Code runs hook commands in, when it needs it. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * `<this node> <bin/charter-hook.cjs>`, both absolute: the hook runs from whatever directory
 * Claude Code is in, with whatever PATH it has (a node from nvm may not be on it).
 */
export function defaultBaseCommand(
  bin: string = CHARTER_HOOK_BIN,
  node: string = process.execPath,
): string {
  return `${shellWord(node)} ${shellWord(bin)}`;
}

export function hookCommand(base: string, event: HookEventName): string {
  return `${base} hook ${event}`;
}

const CHARTER_HOOK = new RegExp(
  `(?:^|[\\s/\\\\'"])charter(?:\\.mjs|-hook\\.cjs)?['"]?\\s+hook\\s+(?:${HOOK_EVENTS.join("|")})$`,
);

/**
 * Whether a settings entry is one of Charter's: a command running `charter hook <event>`
 * (any path to the charter executable, bin/charter.mjs or bin/charter-hook.cjs, so that an
 * entry installed before the hooks had their own entry is updated, not doubled), or exactly `<base> hook <event>`
 * for a custom base command.
 */
export function isCharterEntry(entry: unknown, base?: string): boolean {
  if (!entry || typeof entry !== "object") return false;
  const command = (entry as HookEntry).command;
  if (typeof command !== "string") return false;
  const trimmed = command.trim();
  if (base && HOOK_EVENTS.some((event) => trimmed === hookCommand(base, event))) return true;
  return CHARTER_HOOK.test(trimmed);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

function eventGroups(
  hooks: Record<string, unknown>,
  event: string,
  where: string,
): MatcherGroup[] | undefined {
  const groups = hooks[event];
  if (groups === undefined) return undefined;
  if (!Array.isArray(groups))
    throw new CliError(`${where}: hooks.${event} is not a list; fix it by hand first.`);
  return groups as MatcherGroup[];
}

/**
 * Adds Charter's hook for each event to Claude Code settings, keeping every other key and
 * hook. An event that already has a Charter entry keeps it in place (its command and
 * timeout brought up to date; any second copy removed), so installing twice changes nothing.
 */
export function installHooks(
  settings: ClaudeSettings,
  base: string,
  where = "settings",
): { settings: ClaudeSettings; changed: HookEventName[] } {
  const next = structuredClone(settings);
  if (next.hooks !== undefined && !isObject(next.hooks))
    throw new CliError(`${where}: "hooks" is not an object; fix it by hand first.`);
  const hooks = (next.hooks ??= {});
  const changed: HookEventName[] = [];
  for (const event of CLAUDE_INSTALLED_EVENTS) {
    const desired = {
      type: "command",
      command: hookCommand(base, event),
      timeout: HOOK_TIMEOUT_SECONDS,
    };
    const groups = eventGroups(hooks, event, where) ?? [];
    let found = false;
    let touched = false;
    const emptied = new Set<MatcherGroup>();
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      const kept: unknown[] = [];
      for (const entry of group.hooks as HookEntry[]) {
        if (!isCharterEntry(entry, base)) kept.push(entry);
        else if (found) touched = true;
        else {
          found = true;
          const updated = { ...entry, ...desired };
          if (JSON.stringify(updated) !== JSON.stringify(entry)) touched = true;
          kept.push(updated);
        }
      }
      if (kept.length === 0 && group.hooks.length > 0) emptied.add(group);
      group.hooks = kept;
    }
    if (!found) {
      groups.push({ matcher: HOOK_MATCHERS[event], hooks: [desired] });
      touched = true;
    }
    if (touched) {
      hooks[event] = groups.filter((group) => !emptied.has(group));
      changed.push(event);
    }
  }
  return { settings: next, changed };
}

/**
 * Removes Charter's entries (see isCharterEntry) from every event, and the groups, event
 * lists and `hooks` object that removing them left empty. Everything else stays as it was.
 */
export function uninstallHooks(
  settings: ClaudeSettings,
  base?: string,
): { settings: ClaudeSettings; removed: number } {
  const next = structuredClone(settings);
  if (!isObject(next.hooks)) return { settings: next, removed: 0 };
  const hooks = next.hooks;
  let removed = 0;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    let removedHere = 0;
    const kept = (groups as MatcherGroup[]).filter((group) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return true;
      const before = group.hooks.length;
      const left = group.hooks.filter((entry) => !isCharterEntry(entry, base));
      group.hooks = left;
      removedHere += before - left.length;
      return !(before > 0 && left.length === 0);
    });
    if (removedHere === 0) continue;
    removed += removedHere;
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  if (removed > 0 && Object.keys(hooks).length === 0) delete next.hooks;
  return { settings: next, removed };
}

export type SettingsScope = "project" | "user";

export function settingsPath(
  scope: SettingsScope,
  cwd: string = process.cwd(),
  home: string = os.homedir(),
): string {
  return path.join(scope === "user" ? home : cwd, ".claude", "settings.json");
}

export type SettingsFile = {
  settings: ClaudeSettings;
  exists: boolean;
  indent: string;
  newline: boolean;
};

/** Reads a Claude Code settings file; a missing file is empty settings. */
export function readSettings(file: string): SettingsFile {
  if (!existsSync(file)) return { settings: {}, exists: false, indent: "  ", newline: true };
  const text = readFileSync(file, "utf8");
  let data: unknown;
  try {
    data = text.trim() ? JSON.parse(text) : {};
  } catch (error) {
    throw new CliError(
      `${file} is not valid JSON (${(error as Error).message}); fix it by hand first.`,
    );
  }
  if (!isObject(data))
    throw new CliError(`${file} does not hold a JSON object; fix it by hand first.`);
  const indent = /^[{[]\r?\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
  return { settings: data, exists: true, indent, newline: text.endsWith("\n") || !text.trim() };
}

/** Writes settings atomically (temporary file, then rename), in the file's own indentation and mode. */
export function writeSettings(
  file: string,
  settings: ClaudeSettings,
  style: Pick<SettingsFile, "indent" | "newline"> = { indent: "  ", newline: true },
): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o644;
  writeFileSync(
    temporary,
    `${JSON.stringify(settings, null, style.indent)}${style.newline ? "\n" : ""}`,
    { mode },
  );
  renameSync(temporary, file);
}
