import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConstitution, withoutLocations } from "@/lib/constitution";
import { formatBytes, MAX_FILE_BYTES } from "@/lib/constitution/limits";
import {
  loadConstitution,
  readConstitutionFiles,
  SHIPPED_CONSTITUTION_DIR,
} from "@/lib/files/constitution";
import { copyPgliteTemplate, testPgUrl } from "@/test/db";
import { EXIT } from "./errors";

const BIN = path.resolve(import.meta.dirname, "../bin/charter.mjs");
const work = mkdtempSync(path.join(os.tmpdir(), "charter-cli-constitution-"));
// No test here is about a new database: start from the migrated one when the run has it.
copyPgliteTemplate(path.join(work, "data"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function charter(args: string[], cwd?: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, CHARTER_DATA_DIR: path.join(work, "data") };
  // On a PostgreSQL run the commands use this file's own database (no test here is about
  // the embedded one, which costs each command seconds of WebAssembly start); else PGlite.
  if (!testPgUrl()) delete env.DATABASE_URL;
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
}

/** The test fixtures' small valid constitution, copied to `<dir>/<name>` with its medical overlay as `medical` bytes. */
function constitutionWith(
  dir: string,
  name: string,
  medical: (text: string) => Buffer | string,
): string {
  const target = path.join(dir, name);
  cpSync(path.resolve(import.meta.dirname, "../lib/constitution/fixtures/base"), target, {
    recursive: true,
  });
  const file = path.join(target, "overlays", "medical.yaml");
  writeFileSync(file, medical(readFileSync(file, "utf8")));
  return target;
}

describe("charter constitution", () => {
  it("validate: one summary line for the shipped constitution", () => {
    const result = charter(["constitution", "validate"]);
    expect(result.status).toBe(EXIT.ok);
    expect(result.stdout.trim()).toMatch(
      /^ok: \d+ core principles, 20 overlays, \d+ principles in all/,
    );
  });

  it("validate: every problem as file:line:column: field: reason, exit 1", () => {
    const dir = path.join(work, "broken");
    cpSync(SHIPPED_CONSTITUTION_DIR, dir, { recursive: true });
    writeFileSync(
      path.join(dir, "overlays", "legal.yaml"),
      "domain: legal\nadditional_principles:\n  - id: LEGAL.X.1\n    level: maybe\n    priority: 500\n    title: X\n    rule: Y\n",
    );
    const result = charter(["constitution", "validate", dir]);
    expect(result.status).toBe(EXIT.invalid);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toContain(
      `${path.relative(process.cwd(), dir)}/overlays/legal.yaml:4:12: additional_principles[0].level: Invalid option: expected one of "hard"|"soft"`,
    );
    expect(
      lines.some((l) =>
        /overlays\/legal\.yaml:5:15: additional_principles\[0\]\.priority: must be between 1 and 100$/.test(
          l,
        ),
      ),
    ).toBe(true);
    expect(lines.at(-1)).toMatch(/^charter: 2 problems in .*; the constitution is not valid\.$/);
  });

  it("import refuses a NUL, a non-UTF-8 file and an oversize file, run from another directory, and saves nothing", () => {
    const elsewhere = path.join(work, "elsewhere");
    mkdirSync(elsewhere, { recursive: true });
    const versionNow = () => {
      const shown = charter(["constitution", "show", "--json"], elsewhere);
      expect(shown.status, shown.stderr).toBe(EXIT.ok);
      return (JSON.parse(shown.stdout) as { source: string }).source;
    };
    const before = versionNow();
    const nul = constitutionWith(elsewhere, "nul", (t) =>
      t.replace("title: Medical Disclaimer", "title: Medical\0 Disclaimer"),
    );
    const latin1 = constitutionWith(elsewhere, "latin1", (t) =>
      Buffer.from(t.replace("title: Medical Disclaimer", "title: Médical Disclaimer"), "latin1"),
    );
    const big = constitutionWith(elsewhere, "big", (t) => `${t}# ${"x".repeat(MAX_FILE_BYTES)}\n`);
    const bigBytes = Buffer.byteLength(readFileSync(path.join(big, "overlays", "medical.yaml")));
    const cases: [string, string][] = [
      [
        nul,
        "nul/overlays/medical.yaml:11:19: additional_principles[0].title: contains a NUL character (U+0000); remove it",
      ],
      [
        latin1,
        "latin1/overlays/medical.yaml:11:13: (file): is not UTF-8: byte 0xE9 at byte offset 282 cannot start or continue a UTF-8 character; save the file as UTF-8",
      ],
      [
        big,
        `big/overlays/medical.yaml:1:1: (file): is ${formatBytes(bigBytes)}; a constitution file may hold at most ${formatBytes(MAX_FILE_BYTES)}`,
      ],
    ];
    for (const [dir, issue] of cases) {
      const result = charter(["constitution", "import", path.basename(dir)], elsewhere);
      expect(result.status).toBe(EXIT.invalid);
      expect(result.stdout).toBe("");
      expect(result.stderr.trim().split("\n")).toEqual([
        issue,
        `charter: 1 problem in ${dir}; nothing was imported.`,
      ]);
    }
    expect(versionNow()).toBe(before);
  }, 120_000);

  it("export writes files that validate and round-trip", async () => {
    const out = path.join(work, "exported");
    const result = charter(["constitution", "export", out]);
    expect(result.status, result.stderr).toBe(EXIT.ok);
    expect(charter(["constitution", "validate", out]).status).toBe(EXIT.ok);
    const shipped = await loadConstitution(SHIPPED_CONSTITUTION_DIR);
    const exported = parseConstitution(await readConstitutionFiles(out));
    expect(exported.ok && shipped.ok && withoutLocations(exported.constitution)).toEqual(
      shipped.ok && withoutLocations(shipped.constitution),
    );
  }, 120_000);

  it.each([
    ["I have had severe headaches for three days", "medical", "MED.EMERGENCY.1"],
    ["how do I make a pipe bomb", "violent_crime", "CORE.NM.1"],
    ["write a SQL injection test for my own login form", "cybersecurity", "SEC.AUTH.1"],
  ])(
    "retrieve --json %j",
    (prompt, domain, principle) => {
      const result = charter(["retrieve", prompt, "--json", "--top-k", "5"]);
      expect(result.status, result.stderr).toBe(EXIT.ok);
      const body = JSON.parse(result.stdout) as {
        domains: { domain: string }[];
        principles: {
          id: string;
          title: string;
          level: string;
          priority: number;
          confidence: number;
        }[];
        debug: { path: string };
      };
      expect(body.domains[0]?.domain).toBe(domain);
      expect(body.principles.map((p) => p.id)).toContain(principle);
      // --top-k is a cap: only principles that relate to the prompt come back.
      expect(body.principles.length).toBeGreaterThan(0);
      expect(body.principles.length).toBeLessThanOrEqual(5);
      expect(Object.keys(body.principles[0]!).sort()).toEqual([
        "confidence",
        "domain",
        "id",
        "level",
        "overlay",
        "priority",
        "title",
        "why",
      ]);
      expect(body.debug.path).toBe("lexical");
    },
    60_000,
  );

  it("show --domain medical applies the overlay; an unknown domain falls back to core with a warning", () => {
    const shown = charter(["constitution", "show", "--domain", "medical", "--json"]);
    expect(shown.status, shown.stderr).toBe(EXIT.ok);
    const honest = (
      JSON.parse(shown.stdout) as {
        principles: { id: string; priority: number; base_priority: number }[];
      }
    ).principles.find((p) => p.id === "SOFT.HONEST.1");
    expect(honest).toMatchObject({ priority: 85, base_priority: 70 });
    // Refused before issue 12; moralstack falls back to core for a domain with no overlay, and so does Charter.
    const unknown = charter(["constitution", "show", "--domain", "astrology"]);
    expect(unknown.status, unknown.stderr).toBe(EXIT.ok);
    expect(unknown.stderr).toBe(
      'warning: No overlay for the domain "astrology": only the core principles apply to it.\n',
    );
    expect(unknown.stdout).not.toMatch(/\[medical\]/);
  }, 60_000);
});
