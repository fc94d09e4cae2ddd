import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isCharterEntry } from "../settings";
import {
  dialectCommand,
  runsDialect,
  type AgentHooks,
  type AgentName,
  type InstallScope,
} from "./agent";
import { installEntries, uninstallEntries, type Entry } from "./hook-lists";
import { parseJsonDocument, type JsonDocument } from "./json-text";

/** An agent whose hooks live in a JSON file of its own, edited in place (cli/hook/install/json-text.ts). */
export type JsonAgentSpec = {
  name: Exclude<AgentName, "claude">;
  label: string;
  docs: string;
  settingsPath(scope: InstallScope, projectDir: string, home: string): string;
  /** Whether the agent reads the file as JSON with comments. */
  comments: boolean;
  /** Matcher groups under each event (Codex, Gemini CLI), or the entries themselves (Cursor). */
  grouped: boolean;
  /** The agent's events Charter installs, in its own names, in order. */
  events: readonly string[];
  /** Charter's entry for an event, running `command`. */
  entry(command: string, event: string): Entry;
  /** The keys of the group holding the entry, besides its `hooks` (a matcher). */
  group?(event: string): Entry;
  /** Top-level keys the file must hold (Cursor's version). */
  required?: Entry;
  notes: readonly string[];
};

const EMPTY = "{}\n";

/** The file's text, "{}\n" when it is missing or blank (so that a new file is written the same way). */
function readText(file: string): { text: string; exists: boolean } {
  if (!existsSync(file)) return { text: EMPTY, exists: false };
  const text = readFileSync(file, "utf8");
  return { text: text.trim() ? text : EMPTY, exists: true };
}

/** Writes atomically (temporary file, then rename), keeping the file's mode. */
function writeText(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o644;
  writeFileSync(temporary, text, { mode });
  renameSync(temporary, file);
}

/**
 * Charter's entries are recognised by their command: the agent's dialect, or a Claude Code
 * style `charter hook <Event>` someone put there by hand before the dialects existed
 * (replaced on install rather than left to report every event twice).
 */
function recogniser(spec: JsonAgentSpec, base?: string) {
  return (command: string) =>
    runsDialect(command, spec.name, base) || isCharterEntry({ command }, base);
}

/** An agent's install and uninstall from its spec: the file read whole, edited in place, written only when it changed. */
export function jsonAgent(spec: JsonAgentSpec): AgentHooks {
  const read = (file: string): { doc: JsonDocument; exists: boolean } => {
    const { text, exists } = readText(file);
    return { doc: parseJsonDocument(text, file, { comments: spec.comments }), exists };
  };
  return {
    name: spec.name,
    label: spec.label,
    docs: spec.docs,
    settingsPath: spec.settingsPath,
    notes: spec.notes,
    install(file, base) {
      const { doc } = read(file);
      const wanted = spec.events.map((event) => ({
        event,
        entry: spec.entry(dialectCommand(base, spec.name, event), event),
        group: spec.group?.(event),
      }));
      const result = installEntries(
        doc,
        { grouped: spec.grouped, isCharter: recogniser(spec, base) },
        wanted,
        spec.required,
      );
      if (result.doc.text !== doc.text) writeText(file, result.doc.text);
      return { changed: result.changed };
    },
    uninstall(file, base) {
      const { doc, exists } = read(file);
      if (!exists) return { exists, removed: 0, empty: false };
      const result = uninstallEntries(doc, {
        grouped: spec.grouped,
        isCharter: recogniser(spec, base),
      });
      if (result.removed > 0) writeText(file, result.doc.text);
      const left = Object.keys(result.doc.value).filter((key) => !(key in (spec.required ?? {})));
      return { exists, removed: result.removed, empty: left.length === 0 };
    },
  };
}
