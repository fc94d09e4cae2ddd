import type { JSONPath } from "jsonc-parser";
import { CliError } from "../../errors";
import {
  addProperty,
  appendItem,
  removeAt,
  replaceValue,
  reparse,
  type JsonDocument,
} from "./json-text";

/**
 * How an agent lists its hooks under `hooks.<event>`: Codex and Gemini CLI, like Claude
 * Code, list matcher groups (`{matcher?, hooks: [entry]}`); Cursor lists the entries
 * themselves. An entry runs a `command`.
 */
export type HookLists = {
  grouped: boolean;
  /** Whether an entry's command is one of Charter's (see each agent's module). */
  isCharter: (command: string) => boolean;
};

export type Entry = Record<string, unknown>;

/** What Charter wants in one event: its entry and, in a grouped list, the other keys of the group that holds it. */
export type Wanted = { event: string; entry: Entry; group?: Entry };

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

type Found = { entry: Entry; at: JSONPath };

/** Charter's entries in an event's list, first to last. */
function charterEntries(lists: HookLists, items: unknown[], event: string): Found[] {
  const ours = (entry: unknown): entry is Entry =>
    isObject(entry) && typeof entry.command === "string" && lists.isCharter(entry.command.trim());
  const found: Found[] = [];
  items.forEach((item, index) => {
    if (!lists.grouped) {
      if (ours(item)) found.push({ entry: item, at: ["hooks", event, index] });
      return;
    }
    if (!isObject(item) || !Array.isArray(item.hooks)) return;
    item.hooks.forEach((entry: unknown, inner) => {
      if (ours(entry)) found.push({ entry, at: ["hooks", event, index, "hooks", inner] });
    });
  });
  return found;
}

function hooksObject(doc: JsonDocument): Record<string, unknown> | undefined {
  const hooks = doc.value.hooks;
  if (hooks === undefined) return undefined;
  if (!isObject(hooks))
    throw new CliError(`${doc.file}: "hooks" is not an object; fix it by hand first.`);
  return hooks;
}

function eventList(doc: JsonDocument, event: string): unknown[] | undefined {
  const items = hooksObject(doc)?.[event];
  if (items === undefined) return undefined;
  if (!Array.isArray(items))
    throw new CliError(`${doc.file}: hooks.${event} is not a list; fix it by hand first.`);
  return items;
}

/**
 * Removes one entry and whatever removing it empties: its group, the event's list, the
 * `hooks` object. Containers that were empty already are not Charter's to remove.
 */
function removeEntry(doc: JsonDocument, at: JSONPath): string {
  let target = at;
  const parentOf = (path: JSONPath) => path.slice(0, -1);
  const lengthAt = (path: JSONPath): number => {
    let value: unknown = doc.value;
    for (const key of path) value = (value as Record<string | number, unknown>)[key];
    return Array.isArray(value) ? value.length : Object.keys(value as object).length;
  };
  // ["hooks", event, group, "hooks", entry]: the group's own list is its "hooks" key.
  if (target.length === 5 && lengthAt(parentOf(target)) === 1) target = target.slice(0, 3);
  if (target.length === 3 && lengthAt(parentOf(target)) === 1) target = target.slice(0, 2);
  if (target.length === 2 && lengthAt(parentOf(target)) === 1) target = target.slice(0, 1);
  return removeAt(doc, target);
}

/**
 * Puts Charter's entry in each wanted event, keeping every other key and hook. An event
 * that already has a Charter entry keeps it in place (its keys brought up to date, any
 * second copy removed), so installing twice leaves the text as it was. `required` keys are
 * added at the top when missing (Cursor's `version`). Returns the events it changed.
 */
export function installEntries(
  start: JsonDocument,
  lists: HookLists,
  wanted: readonly Wanted[],
  required: Entry = {},
): { doc: JsonDocument; changed: string[] } {
  let doc = start;
  hooksObject(doc);
  for (const { event } of wanted) eventList(doc, event);
  for (const [key, value] of Object.entries(required))
    if (!(key in doc.value)) doc = reparse(doc, addProperty(doc, [], key, value));
  const changed: string[] = [];
  for (const { event, entry, group } of wanted) {
    let touched = false;
    for (;;) {
      const items = eventList(doc, event);
      const found = items ? charterEntries(lists, items, event) : [];
      const item = lists.grouped ? { ...group, hooks: [entry] } : entry;
      let text: string | undefined;
      if (!hooksObject(doc)) text = addProperty(doc, [], "hooks", { [event]: [item] });
      else if (!items) text = addProperty(doc, ["hooks"], event, [item]);
      else if (found.length === 0) text = appendItem(doc, ["hooks", event], item);
      else if (found.length > 1) text = removeEntry(doc, found.at(-1)!.at);
      else {
        const [{ entry: current, at }] = found as [Found];
        const updated = { ...current, ...entry };
        if (JSON.stringify(updated) !== JSON.stringify(current))
          text = replaceValue(doc, at, updated);
      }
      if (text === undefined) break;
      doc = reparse(doc, text);
      touched = true;
    }
    if (touched) changed.push(event);
  }
  return { doc, changed };
}

/**
 * Removes Charter's entries from every event, and the groups, lists and `hooks` object
 * that removing them left empty. Everything else stays as it was, byte for byte.
 */
export function uninstallEntries(
  start: JsonDocument,
  lists: HookLists,
): { doc: JsonDocument; removed: number } {
  let doc = start;
  let removed = 0;
  for (;;) {
    const hooks = isObject(doc.value.hooks) ? doc.value.hooks : {};
    const found = Object.entries(hooks).flatMap(([event, items]) =>
      Array.isArray(items) ? charterEntries(lists, items, event) : [],
    );
    const last = found.at(-1);
    if (!last) return { doc, removed };
    doc = reparse(doc, removeEntry(doc, last.at));
    removed += 1;
  }
}
