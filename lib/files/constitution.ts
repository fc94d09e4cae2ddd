import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { REPO_ROOT } from "@/lib/paths";
import { CORE_FILE, EVAL_DIR, OVERLAYS_DIR, parseConstitution, serializeConstitution, type Constitution, type ConstitutionFile, type ParseResult } from "@/lib/constitution";

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

/** Reads the files of a constitution directory: core.yaml, overlays/*.yaml and eval/*.yaml (other files are ignored). */
export async function readConstitutionFiles(dir: string): Promise<ConstitutionFile[]> {
  const files: ConstitutionFile[] = [];
  try {
    files.push({ path: CORE_FILE, text: await readFile(path.join(dir, CORE_FILE), "utf8") });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  for (const folder of [OVERLAYS_DIR, EVAL_DIR]) {
    for (const name of await yamlNames(path.join(dir, folder))) {
      files.push({ path: `${folder}/${name}`, text: await readFile(path.join(dir, folder, name), "utf8") });
    }
  }
  return files;
}

/** Loads and validates a constitution directory: a whole constitution or every issue. */
export async function loadConstitution(dir: string): Promise<ParseResult & { files: ConstitutionFile[] }> {
  const files = await readConstitutionFiles(dir);
  return { ...parseConstitution(files), files };
}

/** Writes a constitution to a directory as YAML files that validate and round-trip, with its eval files as they are. */
export async function writeConstitution(dir: string, constitution: Constitution, evalFiles: readonly ConstitutionFile[] = []): Promise<string[]> {
  const files = [...serializeConstitution(constitution), ...evalFiles];
  await mkdir(path.join(dir, OVERLAYS_DIR), { recursive: true });
  if (evalFiles.length) await mkdir(path.join(dir, EVAL_DIR), { recursive: true });
  for (const file of files) await writeFile(path.join(dir, file.path), file.text);
  return files.map((f) => f.path);
}
