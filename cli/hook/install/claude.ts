import {
  installHooks,
  readSettings,
  settingsPath,
  uninstallHooks,
  writeSettings,
} from "../settings";
import type { AgentHooks } from "./agent";

/** Claude Code: `.claude/settings.json`, as `charter hooks install` always wrote it (cli/hook/settings.ts). */
export const claude: AgentHooks = {
  name: "claude",
  label: "Claude Code",
  docs: "https://code.claude.com/docs/en/hooks",
  settingsPath: (scope, projectDir, home) => settingsPath(scope, projectDir, home),
  notes: [],
  install(file, base) {
    const current = readSettings(file);
    const { settings, changed } = installHooks(current.settings, base, file);
    if (changed.length > 0) writeSettings(file, settings, current);
    return { changed };
  },
  uninstall(file, base) {
    const current = readSettings(file);
    const { settings, removed } = uninstallHooks(current.settings, base);
    if (current.exists && removed > 0) writeSettings(file, settings, current);
    return { exists: current.exists, removed, empty: Object.keys(settings).length === 0 };
  },
};
