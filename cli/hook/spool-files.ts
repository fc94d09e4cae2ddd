import { lstatSync, type Stats } from "node:fs";

// What the spool needs to know about a file before trusting it as an event.

/** Length of the JSON object at the start of `text` (strings skipped whole), or -1 when it does not close. */
export function leadingObjectLength(text: string): number {
  let i = text.search(/\S/);
  if (i < 0 || text[i] !== "{") return -1;
  let depth = 0;
  let inString = false;
  for (; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === "{" || c === "[") {
      depth++;
    } else if ((c === "}" || c === "]") && --depth === 0) {
      return i + 1;
    }
  }
  return -1;
}

/** True when the path names anything, a dangling link included. */
export function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

export function describeKind(stat: Stats): string {
  if (stat.isDirectory()) return "a directory";
  if (stat.isFIFO()) return "a named pipe";
  if (stat.isSocket()) return "a socket";
  return "not a regular file";
}
