import path from "node:path";
import type { Command } from "commander";
import {
  ConflictingDefinitionError,
  CORE_DOMAIN_LABEL,
  EVAL_DIR,
  formatIssue,
  resolveConstitution,
  type ConstitutionIssue,
  type ResolvedPrinciple,
} from "@/lib/constitution";
import { formatBytes, MAX_CONSTITUTION_BYTES, MAX_FILE_BYTES } from "@/lib/constitution/limits";
import {
  loadConstitution,
  SHIPPED_CONSTITUTION_DIR,
  writeConstitution,
} from "@/lib/files/constitution";
import { CliError } from "../errors";
import { registerConstitutionEval } from "./constitution-eval";
import { registerConstitutionSuggest } from "./constitution-suggest";
import { withDatabase } from "../runtime";

const DEFAULT_DIR = path.relative(process.cwd(), SHIPPED_CONSTITUTION_DIR) || ".";

function printPrinciples(principles: ResolvedPrinciple[]): void {
  for (const p of principles) {
    const priority =
      p.priority === p.base_priority
        ? `${p.priority}`
        : `${p.priority} (was ${p.base_priority}, ${p.overridden_by})`;
    const label =
      p.overlay ??
      (p.domain && p.domain !== CORE_DOMAIN_LABEL ? `core, labelled ${p.domain}` : null);
    console.log(
      `${p.level.padEnd(4)}  ${priority.padEnd(24)}  ${p.id.padEnd(22)}  ${p.title}${label ? `  [${label}]` : ""}`,
    );
  }
}

/** An issue as `<dir>/<file>:line:column: field: reason`, the directory as given, relative to here. */
function located(dir: string, issue: ConstitutionIssue): string {
  return formatIssue({
    ...issue,
    file: path.join(path.relative(process.cwd(), dir) || ".", issue.file),
  });
}

/** Prints each warning to stderr as `warning: <dir>/<file>:line:column: field: reason`: what loaded but is dubious. */
function warn(dir: string, warnings: readonly ConstitutionIssue[] = []): void {
  for (const w of warnings) console.error(`warning: ${located(dir, w)}`);
}

/** Prints each issue (and warning), then stops. */
function refuse(
  dir: string,
  issues: readonly ConstitutionIssue[],
  outcome: string,
  warnings?: readonly ConstitutionIssue[],
): never {
  for (const issue of issues) console.error(located(dir, issue));
  warn(dir, warnings);
  throw new CliError(
    `${issues.length} ${issues.length === 1 ? "problem" : "problems"} in ${dir}; ${outcome}`,
  );
}

const LIMITS = `files must be UTF-8, at most ${formatBytes(MAX_FILE_BYTES)} each and ${formatBytes(MAX_CONSTITUTION_BYTES)} together, without control characters other than tab and line breaks`;

export function registerConstitution(program: Command): void {
  const constitution = program
    .command("constitution")
    .description("Validate, show, evaluate, import and export the constitution");
  registerConstitutionEval(constitution);
  registerConstitutionSuggest(constitution);

  constitution
    .command("validate [dir]")
    .description(
      `Check a constitution directory (default ${DEFAULT_DIR}): every problem as file:line:column: field: reason; ${LIMITS}`,
    )
    .option("--dir <dir>", "the directory, as an option (as show and eval take it)")
    .action(async (dir: string | undefined, options: { dir?: string }) => {
      if (dir && options.dir && path.resolve(dir) !== path.resolve(options.dir))
        throw new CliError(`Name the directory once: "${dir}" or --dir "${options.dir}".`, 2);
      const target = path.resolve(dir ?? options.dir ?? SHIPPED_CONSTITUTION_DIR);
      const result = await loadConstitution(target);
      if (!result.ok)
        refuse(target, result.issues, "the constitution is not valid.", result.warnings);
      warn(target, result.warnings);
      const overlays = Object.values(result.constitution.overlays);
      const principles = new Set(
        [...result.constitution.core, ...overlays.flatMap((o) => o.additional_principles)].map(
          (p) => p.id,
        ),
      ).size;
      const warned = result.warnings.length
        ? `, ${result.warnings.length} ${result.warnings.length === 1 ? "warning" : "warnings"}`
        : "";
      console.log(
        `ok: ${result.constitution.core.length} core principles, ${overlays.length} overlays, ${principles} principles in all${warned} (${target})`,
      );
    });

  constitution
    .command("show")
    .description(
      "Print the principles in force, merged with a domain's overlay, in precedence order",
    )
    .option(
      "--domain <domain>",
      "apply this domain's overlay (repeat the option, or separate with commas, for several); a domain with no overlay adds nothing, with a warning",
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option("--dir <dir>", "read a constitution directory instead of the database")
    .option("--version <n>", "show this stored version instead of the current one")
    .option("--json", "print JSON")
    .action(
      async (options: { domain: string[]; dir?: string; version?: string; json?: boolean }) => {
        const source = await constitutionSource(options);
        const domains = options.domain
          .flatMap((d) => d.split(","))
          .map((d) => d.trim())
          .filter(Boolean);
        let principles: ResolvedPrinciple[];
        try {
          const resolved = resolveConstitution(source.constitution, domains);
          principles = resolved.principles;
          for (const w of resolved.warnings) console.error(`warning: ${w}`);
        } catch (error) {
          if (error instanceof ConflictingDefinitionError) throw new CliError(error.message);
          throw error;
        }
        if (options.json)
          console.log(JSON.stringify({ source: source.label, domains, principles }, null, 2));
        else {
          console.log(
            `# ${source.label}${domains.length ? `, domains: ${domains.join(", ")}` : ""}`,
          );
          printPrinciples(principles);
        }
      },
    );

  constitution
    .command("export <dir>")
    .description(
      "Write the current (or --version) constitution as YAML files that validate and round-trip",
    )
    .option("--version <n>", "export this stored version")
    .action(async (dir: string, options: { version?: string }) => {
      const source = await constitutionSource(options);
      const written = await writeConstitution(
        path.resolve(dir),
        source.constitution,
        source.files.filter((f) => f.path.startsWith(`${EVAL_DIR}/`)),
      );
      console.log(`wrote ${written.length} files of ${source.label} to ${path.resolve(dir)}`);
    });

  constitution
    .command("import <dir>")
    .description(`Validate a constitution directory and save it as a new version (${LIMITS})`)
    .option(
      "-m, --message <message>",
      "what changed and why",
      "Imported with charter constitution import",
    )
    .action(async (dir: string, options: { message: string }) => {
      const target = path.resolve(dir);
      const result = await loadConstitution(target);
      if (!result.ok) refuse(target, result.issues, "nothing was imported.", result.warnings);
      warn(target, result.warnings);
      await withDatabase(async () => {
        const { constitutionVersions } = await import("@/lib/db/constitution");
        const current = await constitutionVersions.current();
        const saved = await constitutionVersions.save(
          {
            files: result.files,
            baseVersionId: current?.id ?? null,
            message: options.message,
            action: "constitution.import",
          },
          { id: null, label: "cli" },
        );
        console.log(`saved as version ${saved.id}`);
      });
    });
}

function parseVersion(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new CliError(`--version must be a positive whole number (got "${value}").`, 2);
  return n;
}

/** The constitution to show or export: a directory, or a version from the database. */
async function constitutionSource(options: { dir?: string; version?: string }) {
  const versionId = parseVersion(options.version);
  if (options.dir) {
    const result = await loadConstitution(path.resolve(options.dir));
    if (!result.ok)
      throw new CliError(
        `${options.dir} is not a valid constitution: run \`charter constitution validate ${options.dir}\`.`,
      );
    return {
      constitution: result.constitution,
      files: result.files,
      label: `directory ${options.dir}`,
    };
  }
  return withDatabase(async () => {
    const { constitutionVersions } = await import("@/lib/db/constitution");
    const { ensureConstitution } = await import("@/lib/services/constitution");
    await ensureConstitution();
    const version = versionId
      ? await constitutionVersions.get(versionId)
      : await constitutionVersions.current();
    if (!version) throw new CliError("No constitution is stored yet.");
    return {
      constitution: version.constitution,
      files: version.files,
      label: `version ${version.id}`,
    };
  });
}
