import path from "node:path";

/**
 * The repository root. Under tsx and Vitest it follows from this file's location;
 * inside the Next.js server bundle `import.meta.dirname` is undefined, and the
 * server runs from the root (`charter serve` starts it there).
 */
export const REPO_ROOT: string = import.meta.dirname
  ? path.resolve(import.meta.dirname, "..")
  : process.cwd();
