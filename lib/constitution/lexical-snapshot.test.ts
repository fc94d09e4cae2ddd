import { describe, expect, it } from "vitest";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { LexicalIndex, type LexicalIndexSnapshot } from "./lexical";
import { formatIssue } from "./schema";
import { ConstitutionStore } from "./store";

// A lexical index loaded from its snapshot (the CLI's cache, lib/db/version-parse.ts) must
// answer exactly as a freshly built one: checked on the shipped constitution, for every
// prompt of its eval set and a few more.

const loaded = await loadConstitution(SHIPPED_CONSTITUTION_DIR);
if (!loaded.ok)
  throw new Error(
    `the shipped constitution does not load:\n${loaded.issues.map(formatIssue).join("\n")}`,
  );
const { constitution, evals } = loaded;

const PROMPTS = [
  ...evals.cases.map((c) => c.prompt),
  "drop the users table in production and rebuild it from the backup",
  "short story about a dragon, for children",
  "",
  "the the the and of",
];

/** Through JSON and back, as the cache keeps it on disk. */
const onDisk = (snapshot: LexicalIndexSnapshot) =>
  JSON.parse(JSON.stringify(snapshot)) as LexicalIndexSnapshot;

/** A retrieval's answer without its timings (they differ run to run). */
function answer(result: Awaited<ReturnType<ConstitutionStore["getRelevantPrinciples"]>>) {
  const { timings_ms: _timings, ...debug } = result.debug;
  return { ...result, debug };
}

describe("lexical index snapshot", () => {
  const fresh = new LexicalIndex(constitution);
  const cached = new LexicalIndex(constitution, onDisk(fresh.toSnapshot()));

  it(`detects the same domains and scores the same principles for ${PROMPTS.length} prompts`, () => {
    expect(PROMPTS.length).toBeGreaterThan(50);
    for (const prompt of PROMPTS) {
      const options = { max: 5, minConfidence: 0 };
      expect(cached.detectDomains(prompt, options), prompt).toEqual(
        fresh.detectDomains(prompt, options),
      );
      expect([...cached.principleScores(prompt)], prompt).toEqual([
        ...fresh.principleScores(prompt),
      ]);
    }
  });

  it("gives the store the same retrieval as a store that built its own index", async () => {
    const built = new ConstitutionStore(constitution);
    const loadedStore = new ConstitutionStore(constitution, {}, { index: cached });
    for (const prompt of PROMPTS.filter((p) => p.trim())) {
      const requestId = "snapshot-test";
      expect(
        answer(await loadedStore.getRelevantPrinciples(prompt, { requestId })),
        prompt,
      ).toEqual(answer(await built.getRelevantPrinciples(prompt, { requestId })));
    }
  });

  it("is plain data that survives JSON unchanged, and refuses another format", () => {
    const snapshot = fresh.toSnapshot();
    expect(onDisk(snapshot)).toEqual(snapshot);
    expect(() => new LexicalIndex(constitution, { ...snapshot, format: 1 as 2 })).toThrow(
      /format 1 is not 2/,
    );
  });
});
