import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The layers the README states, enforced by lint (eslint.config.mjs): app/components ->
// actions/http -> services -> db -> engine; lib/schemas and lib/errors usable by all.
const ROOT = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: ROOT });

async function restricted(file: string, spec: string): Promise<boolean> {
  const [result] = await eslint.lintText(`import x from "${spec}";\nexport const y = x;\n`, {
    filePath: path.join(ROOT, file),
  });
  return result!.messages.some((m) => m.ruleId === "no-restricted-imports");
}

describe("each layer imports only the layers under it (lint rule)", () => {
  it.each([
    ["lib/db/probe.ts", "@/lib/services/ingest"],
    ["lib/db/probe.ts", "../services/ingest"],
    ["lib/db/probe.ts", "@/lib/actions/client"],
    ["lib/db/probe.ts", "@/lib/http/route"],
    ["lib/db/probe.ts", "@/lib/auth/caller"],
    ["lib/db/probe.ts", "@/components/ui/button"],
    ["lib/db/probe.ts", "@/app/layout"],
    ["lib/services/probe.ts", "@/lib/actions/client"],
    ["lib/services/probe.ts", "../actions/client"],
    ["lib/services/probe.ts", "@/lib/http/route"],
    ["lib/services/probe.ts", "@/components/ui/button"],
    ["lib/auth/probe.ts", "@/lib/actions/client"],
    ["lib/actions/probe.ts", "@/components/ui/button"],
    ["lib/http/probe.ts", "@/app/layout"],
    ["lib/schemas/probe.ts", "@/lib/db/users"],
    ["lib/schemas/probe.ts", "@/lib/auth/caller"],
    ["lib/schemas/probe.ts", "@/lib/services/ingest"],
    ["lib/transcripts/probe.ts", "@/lib/db/turns"],
    ["components/probe.tsx", "@/lib/services/constitution-eval"],
    ["components/probe.tsx", "@/lib/db/turns"],
    ["lib/constitution/probe.ts", "@/lib/files/constitution"],
    ["lib/reward/probe.ts", "@/lib/services/ingest"],
    ["lib/credit/probe.ts", "@/lib/log"],
  ])(
    "%s may not import %s",
    async (file, spec) => {
      expect(await restricted(file, spec)).toBe(true);
    },
    30_000,
  );

  it.each([
    ["lib/db/probe.ts", "@/lib/auth/roles"],
    ["lib/db/probe.ts", "@/lib/constitution"],
    ["lib/db/probe.ts", "@/lib/schemas/events"],
    ["lib/services/probe.ts", "@/lib/db/turns"],
    ["lib/services/probe.ts", "@/lib/auth/bootstrap"],
    ["lib/actions/probe.ts", "@/lib/services/constitution"],
    ["lib/http/probe.ts", "@/lib/auth/caller"],
    ["lib/schemas/probe.ts", "@/lib/auth/roles"],
    ["lib/schemas/probe.ts", "@/lib/constitution"],
    ["components/probe.tsx", "@/lib/actions/client"],
    ["components/probe.tsx", "@/lib/schemas/turns"],
    ["lib/playbook/probe.ts", "@/lib/errors"],
    ["lib/constitution/probe.ts", "@/lib/json-reply"],
    ["lib/constitution/probe.ts", "@/lib/reward"],
  ])(
    "%s may import %s",
    async (file, spec) => {
      expect(await restricted(file, spec)).toBe(false);
    },
    30_000,
  );
});
