import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Role } from "@/lib/auth/roles";
import { auditLog, SYSTEM_ACTOR } from "@/lib/db/audit";
import { constitutionVersions } from "@/lib/db/constitution";
import { evalOfVersion } from "@/lib/services/constitution-eval";
import { setupTestDatabaseWithConstitution } from "@/test/db";
import { saveOverlayAction } from "./save-overlay";
import { suggestEvalFixAction } from "./suggest-eval-fix";

// Suggesting a fix for a failing eval case, and applying it, as the Evals page does: the
// action client, the service and the repositories, with only the request stood in for.
let role: Role = "editor";
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("@/lib/auth/caller", async (actual) => ({
  ...(await actual<typeof import("@/lib/auth/caller")>()),
  resolveCaller: async () => ({
    kind: "user",
    userId: `suggest-${role}`,
    email: `${role}@example.test`,
    name: role,
    role,
  }),
}));

// The constitution whose eval failures have known suggestions (lib/constitution/fixtures/README.md).
const FIXTURE = path.resolve(import.meta.dirname, "../constitution/fixtures/suggest");
const FILES = ["core.yaml", "overlays/cooking.yaml", "overlays/gaming.yaml", "eval/main.yaml"].map(
  (p) => ({ path: p, text: readFileSync(path.join(FIXTURE, p), "utf8") }),
);

let teardown: () => Promise<void>;
let versionId: number;

beforeAll(async () => {
  ({ teardown } = await setupTestDatabaseWithConstitution());
  const shipped = await constitutionVersions.current();
  versionId = (
    await constitutionVersions.save(
      { files: FILES, baseVersionId: shipped!.id, message: "the suggestion fixture" },
      SYSTEM_ACTOR,
    )
  ).id;
});
afterAll(() => teardown());

describe("suggestEvalFixAction", () => {
  it("is refused to a viewer", async () => {
    role = "viewer";
    try {
      const result = await suggestEvalFixAction({ versionId, file: "eval/main.yaml", line: 3 });
      expect(result).toEqual({
        ok: false,
        error: { code: "forbidden", message: "This needs the editor role or higher." },
      });
    } finally {
      role = "editor";
    }
  });

  it("answers a case no version holds with not found", async () => {
    const result = await suggestEvalFixAction({ versionId, file: "eval/main.yaml", line: 4 });
    expect(result.ok ? null : result.error).toMatchObject({
      code: "not_found",
      message: `No eval case starts at eval/main.yaml:4 in version ${versionId}.`,
    });
  });

  it("suggests an edit that an editor applies with an ordinary, audited overlay save", async () => {
    const result = await suggestEvalFixAction({ versionId, file: "eval/main.yaml", line: 3 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.data).toMatchObject({ versionId, line: 3, search: "complete" });
    const suggestion = result.data.failures[0]!.suggestion!;
    expect(suggestion.summary).toBe(`add "peanut" to COOK.ALLERGY.1's keywords`);
    expect(suggestion.path).toBe("overlays/cooking.yaml");
    // Nothing is saved by a suggestion.
    expect((await constitutionVersions.current())!.id).toBe(versionId);

    const saved = await saveOverlayAction({
      domain: "cooking",
      text: suggestion.text,
      baseVersionId: versionId,
      message: `Suggested fix for eval/main.yaml:3: ${suggestion.summary}`,
    });
    if (!saved.ok) throw new Error(saved.error.message);
    expect(saved.data.versionId).toBe(versionId + 1);
    const after = await evalOfVersion(saved.data.versionId);
    expect(after.failures.map((f) => `${f.line} ${f.kind}`)).toEqual([
      "6 false_injection",
      "8 principle_miss",
      "18 principle_miss",
    ]);
    const [audit] = await auditLog.list({ limit: 1 });
    expect(audit).toMatchObject({
      action: "constitution.save_overlay",
      actorLabel: "editor@example.test",
      objectId: String(saved.data.versionId),
    });
  });
});
