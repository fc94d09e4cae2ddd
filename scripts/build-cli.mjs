#!/usr/bin/env node
// Bundles the `charter` CLI (cli/main.ts) into dist/cli/, so the command starts in plain
// Node from any directory: the `@/` alias is resolved here, at build time, and nothing is
// compiled per call. npm packages stay imports, resolved from the repository's
// node_modules (dist/ lives in the repository, so that works from any working directory),
// except those in BUNDLED: zod is pure code that nearly every command loads, and as an
// import it is 200-odd module files, a tenth of a second per call. Charter's schemas use
// it among themselves only (no zod object crosses into better-auth's own copy).
// Code splitting gives each command's implementation its own chunks, loaded by its
// action's `await import()`: `charter --help` loads commander and the definitions only.
//
// Charter's sources find the repository through `import.meta.url`/`import.meta.dirname`
// (lib/paths.ts, cli/runtime.ts, cli/hook/settings.ts). In a chunk those would name
// dist/cli/, so each occurrence is rewritten to the source file's own location, relative
// to the chunk: the bundle keeps working when the repository moves.
//
// dist/cli/retrieve-fast.cjs is `charter retrieve`'s usual call on the embedded database
// (cli/retrieve-fast.ts) as one CommonJS file, engine and its packages included, checked to
// reach no database driver: bin/charter.mjs requires it first, and only when it gives way
// loads the command's bundle.
//
// dist/cli/sources.json lists Charter's files in the bundle (paths relative to the
// repository), for bin/charter.mjs's staleness check.
//
// The output is built in a temporary directory and swapped in, so a command running
// meanwhile never loads half a build.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const entry = path.join(ROOT, "cli", "main.ts");
if (!existsSync(entry)) process.exit(0);
const outdir = path.join(ROOT, "dist", "cli");
const staging = `${outdir}.${process.pid}.tmp`;
const GENERATED = path.join(ROOT, "lib", "db", "generated") + path.sep;
const BUNDLED = /^zod(\/|$)/;

/** Every package import stays an import, but those BUNDLED. `@/` is Charter's alias, resolved by esbuild. */
const packagesExternal = {
  name: "charter-packages-external",
  setup(b) {
    b.onResolve({ filter: /^[^./@]|^@[^/]/ }, (args) =>
      BUNDLED.test(args.path) ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * `import.meta.url` and `import.meta.dirname` of a Charter source file, as seen from a file in
 * dist/cli/: an ES module chunk, or (`format` "cjs") the CommonJS fast bundle of `charter retrieve`.
 */
function sourceLocation(format = "esm") {
  const url =
    format === "cjs" ? 'require("node:url").pathToFileURL(__filename).href' : "import.meta.url";
  const dirname = format === "cjs" ? "__dirname" : "import.meta.dirname";
  return {
    name: "charter-source-location",
    setup(b) {
      b.onLoad({ filter: /\.tsx?$/ }, (args) => {
        if (
          args.path.includes(`${path.sep}node_modules${path.sep}`) ||
          args.path.startsWith(GENERATED)
        )
          return undefined;
        const text = readFileSync(args.path, "utf8");
        const loader = args.path.endsWith(".tsx") ? "tsx" : "ts";
        if (!text.includes("import.meta.")) return { contents: text, loader };
        const file = path.relative(outdir, args.path).split(path.sep).join("/");
        const dir = path.relative(outdir, path.dirname(args.path)).split(path.sep).join("/");
        const contents = text
          .replaceAll("import.meta.url", `new URL(${JSON.stringify(file)}, ${url}).href`)
          .replaceAll("import.meta.dirname", `(${dirname} + ${JSON.stringify(`/${dir}`)})`);
        return { contents, loader };
      });
    },
  };
}

/**
 * The fast bundle of `charter retrieve` (cli/retrieve-fast.ts): one CommonJS file, required
 * before the ES module bundle, with the packages every call needs inside it (an import would
 * go through the module loader; stemmer is an ES module only). Others stay requires, made
 * only on a path that needs them (yaml, to parse a version whose parse is not cached).
 */
const FAST_BUNDLED = /^(zod|minisearch|stemmer)(\/|$)/;
/** What the fast bundle must never reach: a database driver or client, or an LLM SDK. */
const FAST_FORBIDDEN = /(^|\/)(@prisma|prisma|pg|@electric-sql|openai)(\/|$)|lib\/db\/client\.ts$/;

const fastPackages = {
  name: "charter-fast-packages",
  setup(b) {
    b.onResolve({ filter: /^[^./@]|^@[^/]/ }, (args) =>
      FAST_BUNDLED.test(args.path) ? undefined : { path: args.path, external: true },
    );
  },
};

const ENGINE_PACKAGES = ["minisearch", "stemmer", "yaml", "zod"];

/**
 * The engine build: a hash of lib/constitution's sources and of the versions of the packages
 * it parses with. Parsed constitution versions are cached on disk under it
 * (lib/files/parsed-snapshots.ts), so a changed parser never reads an older parser's result.
 */
function engineBuildId() {
  const dir = path.join(ROOT, "lib", "constitution");
  const hash = createHash("sha256");
  for (const name of ENGINE_PACKAGES)
    hash.update(
      `${name}@${JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")).version}\0`,
    );
  for (const name of readdirSync(dir, { recursive: true }).map(String).sort()) {
    if (!/\.ts$/.test(name) || /\.test\.ts$/.test(name)) continue;
    hash
      .update(`${name}\0`)
      .update(readFileSync(path.join(dir, name)))
      .update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

rmSync(staging, { recursive: true, force: true });
const engineBuild = engineBuildId();
const result = await build({
  define: { __CHARTER_ENGINE_BUILD__: JSON.stringify(engineBuild) },
  absWorkingDir: ROOT,
  entryPoints: { main: entry },
  outdir: staging,
  outExtension: { ".js": ".mjs" },
  chunkNames: "[name]-[hash]", // beside main.mjs: the rewritten locations are relative to dist/cli/
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
  alias: { "@": ROOT },
  plugins: [packagesExternal, sourceLocation()],
  metafile: true,
});
const fast = await build({
  define: { __CHARTER_ENGINE_BUILD__: JSON.stringify(engineBuild) },
  absWorkingDir: ROOT,
  entryPoints: [path.join(ROOT, "cli", "retrieve-fast.ts")],
  outfile: path.join(staging, "retrieve-fast.cjs"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  minify: true,
  logLevel: "warning",
  alias: { "@": ROOT },
  plugins: [fastPackages, sourceLocation("cjs")],
  metafile: true,
});
const reached = [
  ...Object.keys(fast.metafile.inputs),
  ...Object.values(fast.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path)),
].filter((input) => FAST_FORBIDDEN.test(input));
if (reached.length) {
  console.error(
    `dist/cli/retrieve-fast.cjs must not reach a database driver or client:\n  ${reached.join("\n  ")}`,
  );
  rmSync(staging, { recursive: true, force: true });
  process.exit(1);
}
// Charter's own inputs, which bin/charter.mjs compares with the bundle's time: a source
// edited since the build runs from source instead of from a stale bundle.
const sources = [
  ...new Set(
    [...Object.keys(result.metafile.inputs), ...Object.keys(fast.metafile.inputs)].filter(
      (input) => !input.includes("node_modules"),
    ),
  ),
];
writeFileSync(path.join(staging, "sources.json"), `${JSON.stringify(sources)}\n`);
const previous = `${outdir}.${process.pid}.old`;
if (existsSync(outdir)) renameSync(outdir, previous);
renameSync(staging, outdir);
rmSync(previous, { recursive: true, force: true });
