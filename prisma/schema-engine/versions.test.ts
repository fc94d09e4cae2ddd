import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

type Manifest = {
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  prisma?: { enginesVersion?: string };
};

/** The package.json of an installed package (the install is flat), or of the repository for "". */
function manifest(name: string): Manifest {
  const file = path.join(ROOT, name && "node_modules", name, "package.json");
  return JSON.parse(readFileSync(file, "utf8")) as Manifest;
}

describe("the schema-engine stand-in's engine build", () => {
  // The stand-in serves Prisma's CLI with the wasm build of the schema engine; the CLI and
  // the engine speak a private protocol, so both must come from the same Prisma release.
  const prisma = manifest("prisma");
  const engines = manifest("@prisma/engines");
  const enginesVersion = manifest("@prisma/engines-version");
  const wasm = manifest("@prisma/schema-engine-wasm");
  const pinned = { ...manifest("").dependencies, ...manifest("").devDependencies };

  it("is the engine build the installed Prisma CLI was released with", () => {
    expect(engines.version).toBe(prisma.version);
    expect(engines.dependencies?.["@prisma/engines-version"]).toBe(enginesVersion.version);
    expect(wasm.version).toBe(enginesVersion.version);
    expect(wasm.version).toBe(`${prisma.version}-4.${enginesVersion.prisma?.enginesVersion}`);
  });

  it("is pinned in package.json to exactly the installed versions", () => {
    expect(pinned["prisma"]).toBe(prisma.version);
    expect(pinned["@prisma/schema-engine-wasm"]).toBe(wasm.version);
  });
});
