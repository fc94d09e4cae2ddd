import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const ENGINE = ["constitution", "reward", "credit", "playbook"];
const eslint = new ESLint({ cwd: ROOT });

async function lint(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter(
    (m) => m.ruleId === "no-restricted-imports" || m.ruleId === "no-restricted-globals",
  );
}

describe("the engine stays pure (lint rule)", () => {
  it.each(
    ENGINE.flatMap((mod) =>
      [
        "next/server",
        "react",
        "@prisma/client",
        "openai",
        "node:fs",
        "fs/promises",
        "node:child_process",
        "@/lib/db/client",
      ].map((spec) => [mod, spec] as const),
    ),
  )(
    "lib/%s may not import %s",
    async (mod, spec) => {
      const messages = await lint(
        `lib/${mod}/probe.ts`,
        `import x from "${spec}";\nexport const y = x;\n`,
      );
      expect(messages.map((m) => m.ruleId)).toContain("no-restricted-imports");
    },
    30_000,
  );

  it("may import zod, yaml and its own modules", async () => {
    expect(
      await lint(
        "lib/reward/probe.ts",
        `import { z } from "zod";\nimport YAML from "yaml";\nimport { a } from "./a";\nexport const y = [z, YAML, a];\n`,
      ),
    ).toEqual([]);
  }, 30_000);

  it("may not read process.env", async () => {
    const messages = await lint("lib/credit/probe.ts", `export const y = process.env.X;\n`);
    expect(messages.map((m) => m.ruleId)).toContain("no-restricted-globals");
  }, 30_000);

  it("the same imports are fine outside the engine", async () => {
    expect(
      await lint(
        "lib/db/probe.ts",
        `import { readFileSync } from "node:fs";\nexport const y = readFileSync;\n`,
      ),
    ).toEqual([]);
  }, 30_000);
});
