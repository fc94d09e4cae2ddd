import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fallbackSpoolDir } from "./spool-dirs";

export const DEFAULT_URL = "http://127.0.0.1:3000";

export type HookConfig = {
  /** Base URL of the Charter server, without a trailing slash. */
  url: string;
  /** Where `url` came from: CHARTER_URL, the config file, or the default (as read by resolveHookConfig). */
  urlFrom?: "environment" | "file" | "default";
  /** The JSON config file read (it may not exist). */
  file?: string;
  apiKey: string | undefined;
  spoolDir: string;
  /** Where events go when spoolDir cannot be written (spool-dirs.ts). */
  fallbackSpoolDir: string;
  /** A problem with the config file, reported once on stderr by the caller. */
  warning?: string;
};

type Source = Record<string, string | undefined>;

function configFile(source: Source, home: string): string {
  return source.CHARTER_HOOK_CONFIG?.trim() || path.join(home, ".config", "charter", "hook.json");
}

function readConfigFile(file: string): { url?: string; api_key?: string; warning?: string } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    return { warning: `cannot read ${file}: ${(error as Error).message}` };
  }
  try {
    const data: unknown = JSON.parse(text);
    if (!data || typeof data !== "object" || Array.isArray(data))
      return { warning: `${file} is not a JSON object` };
    const { url, api_key } = data as Record<string, unknown>;
    return {
      url: typeof url === "string" ? url : undefined,
      api_key: typeof api_key === "string" ? api_key : undefined,
    };
  } catch {
    return { warning: `${file} is not valid JSON` };
  }
}

/**
 * The hook's settings: CHARTER_URL, CHARTER_API_KEY and CHARTER_SPOOL_DIR win over the
 * JSON file at CHARTER_HOOK_CONFIG (default ~/.config/charter/hook.json). The spool's
 * fallback is in the temporary directory (TMPDIR), per user.
 */
export function resolveHookConfig(source: Source, home: string = os.homedir()): HookConfig {
  const configPath = configFile(source, home);
  const file = readConfigFile(configPath);
  const urlFrom = source.CHARTER_URL?.trim()
    ? "environment"
    : file.url?.trim()
      ? "file"
      : "default";
  const url = (source.CHARTER_URL?.trim() || file.url?.trim() || DEFAULT_URL).replace(/\/+$/, "");
  const apiKey = source.CHARTER_API_KEY?.trim() || file.api_key?.trim() || undefined;
  const spoolDir =
    source.CHARTER_SPOOL_DIR?.trim() || path.join(home, ".local", "state", "charter", "spool");
  return {
    url,
    urlFrom,
    file: configPath,
    apiKey,
    spoolDir,
    fallbackSpoolDir: fallbackSpoolDir(),
    ...(file.warning ? { warning: file.warning } : {}),
  };
}

/**
 * Reads the hook's settings from the process environment. This is the one reader of
 * process.env besides lib/env.ts: the hook must answer within 1 s, so it starts
 * without loading the app (and zod) that lib/env.ts brings in.
 */
export function loadHookConfig(): HookConfig {
  // eslint-disable-next-line no-restricted-properties -- the hook's fast path cannot load lib/env.ts (see above)
  return resolveHookConfig(process.env);
}

/**
 * Writes `url` into the hook's JSON config file, keeping what else it holds (the key):
 * `charter hooks install` points the hooks at the server that runs. Atomic, mode 0600
 * (the file may hold the API key).
 */
export function saveHookUrl(file: string, url: string): void {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
      data = parsed as Record<string, unknown>;
  } catch {
    // absent or unreadable: a new file with the URL alone
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ ...data, url }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}
