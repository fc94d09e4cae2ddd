import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { REPO_ROOT } from "@/lib/paths";
import {
  CORE_FILE,
  EVAL_DIR,
  formatIssue,
  OVERLAYS_DIR,
  parseConstitution,
  serializeConstitution,
  type Constitution,
  type ConstitutionFile,
  type ConstitutionIssue,
  type ParseResult,
} from "@/lib/constitution";
import { decodeConstitutionFile, sizeIssues } from "@/lib/constitution/limits";

/** The shipped constitution directory. */
export const SHIPPED_CONSTITUTION_DIR = path.join(REPO_ROOT, "constitution");

/** The YAML file names in a folder, sorted; none when the folder does not exist. */
async function yamlNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((n) => /\.ya?ml$/.test(n)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return [];
  }
}

/** The constitution files of a directory (core.yaml, overlays/*.yaml, eval/*.yaml; other files are ignored) with their sizes. */
async function listFiles(dir: string): Promise<{ path: string; bytes: number }[]> {
  const paths = [CORE_FILE];
  for (const folder of [OVERLAYS_DIR, EVAL_DIR])
    paths.push(...(await yamlNames(path.join(dir, folder))).map((name) => `${folder}/${name}`));
  const listed: { path: string; bytes: number }[] = [];
  for (const p of paths) {
    try {
      const info = await stat(path.join(dir, p));
      if (info.isFile()) listed.push({ path: p, bytes: info.size });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return listed;
}

/**
 * Reads a constitution directory, refusing what the engine's input limits refuse before
 * it is parsed: files over the size limits are not read at all, and a file that is not
 * UTF-8 is an issue naming its first bad byte, never text with replacement characters.
 */
export async function readConstitutionDir(
  dir: string,
): Promise<{ files: ConstitutionFile[]; issues: ConstitutionIssue[] }> {
  const listed = await listFiles(dir);
  const tooLarge = sizeIssues(listed);
  if (tooLarge.length) return { files: [], issues: tooLarge };
  const files: ConstitutionFile[] = [];
  const issues: ConstitutionIssue[] = [];
  for (const { path: p } of listed) {
    const decoded = decodeConstitutionFile(p, await readFile(path.join(dir, p)));
    if (decoded.ok) files.push({ path: p, text: decoded.text });
    else issues.push(decoded.issue);
  }
  return { files, issues };
}

/** Reads the files of a constitution directory that is known to be readable (the shipped one); throws when it is not. */
export async function readConstitutionFiles(dir: string): Promise<ConstitutionFile[]> {
  const { files, issues } = await readConstitutionDir(dir);
  if (issues.length)
    throw new Error(
      `${dir} cannot be read as a constitution:\n${issues.map(formatIssue).join("\n")}`,
    );
  return files;
}

/** Loads and validates a constitution directory: a whole constitution or every issue (unreadable files first, alone). */
export async function loadConstitution(
  dir: string,
): Promise<ParseResult & { files: ConstitutionFile[] }> {
  const { files, issues } = await readConstitutionDir(dir);
  if (issues.length) return { ok: false, issues, files };
  return { ...parseConstitution(files), files };
}

/** Writes a constitution to a directory as YAML files that validate and round-trip, with its eval files as they are. */
export async function writeConstitution(
  dir: string,
  constitution: Constitution,
  evalFiles: readonly ConstitutionFile[] = [],
): Promise<string[]> {
  const files = [...serializeConstitution(constitution), ...evalFiles];
  await mkdir(path.join(dir, OVERLAYS_DIR), { recursive: true });
  if (evalFiles.length) await mkdir(path.join(dir, EVAL_DIR), { recursive: true });
  for (const file of files) await writeFile(path.join(dir, file.path), file.text);
  return files.map((f) => f.path);
}
