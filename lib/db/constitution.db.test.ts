import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serializeOverlay } from "@/lib/constitution";
import { ConflictError, ValidationError } from "@/lib/errors";
import { readConstitutionFiles, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { setupTestDatabase } from "@/test/db";
import { auditLog } from "./audit";
import { db } from "./client";
import { ConstitutionInvalidError, constitutionVersions, contentHash } from "./constitution";

let teardown: () => Promise<void>;
const actor = { id: null, label: "test-editor" };

beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  const files = await readConstitutionFiles(SHIPPED_CONSTITUTION_DIR);
  // The PostgreSQL test database is shared across files: import only when empty.
  await constitutionVersions.importIfEmpty(files, "shipped");
});
afterAll(() => teardown());

async function current() {
  const version = await constitutionVersions.current();
  if (!version) throw new Error("no constitution");
  return version;
}

function medicalWith(version: Awaited<ReturnType<typeof current>>, description: string): string {
  return serializeOverlay({ ...version.constitution.overlays.medical!, description });
}

describe("constitution versions", () => {
  it("imports once: a second import on a non-empty database does nothing", async () => {
    expect(await constitutionVersions.importIfEmpty((await current()).files, "again")).toBeNull();
  });

  it("saves an overlay edit as a new immutable version, audited", async () => {
    const base = await current();
    const saved = await constitutionVersions.saveOverlay({ domain: "medical", text: medicalWith(base, "Health questions and symptoms."), baseVersionId: base.id, message: "shorter description" }, actor);
    expect(saved.id).toBeGreaterThan(base.id);
    expect(saved.parentId).toBe(base.id);
    const after = await current();
    expect(after.id).toBe(saved.id);
    expect(after.constitution.overlays.medical?.description).toBe("Health questions and symptoms.");
    // The base version is unchanged.
    expect((await constitutionVersions.get(base.id)).constitution.overlays.medical?.description).not.toBe("Health questions and symptoms.");
    const entry = (await auditLog.list({ objectType: "constitution" })).find((e) => e.objectId === String(saved.id));
    expect(entry).toMatchObject({ action: "constitution.save_overlay", actorLabel: "test-editor", before: { version: base.id } });
  });

  it("refuses an invalid overlay with located issues and writes nothing", async () => {
    const base = await current();
    const before = await db().constitutionVersion.count();
    const text = medicalWith(base, "x").replace(/priority: 80/, "priority: 150");
    const error = await constitutionVersions.saveOverlay({ domain: "medical", text, baseVersionId: base.id, message: "bad" }, actor).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConstitutionInvalidError);
    const issues = (error as ConstitutionInvalidError).issues;
    expect(issues[0]).toMatchObject({ file: "overlays/medical.yaml", reason: "must be between 1 and 100" });
    expect(issues[0]!.line).toBeGreaterThan(1);
    expect(await db().constitutionVersion.count()).toBe(before);
    expect((await current()).id).toBe(base.id);
  });

  it("refuses a save from a stale base with a conflict", async () => {
    const base = await current();
    await constitutionVersions.saveOverlay({ domain: "medical", text: medicalWith(base, "First editor."), baseVersionId: base.id, message: "first" }, actor);
    await expect(constitutionVersions.saveOverlay({ domain: "medical", text: medicalWith(base, "Second editor."), baseVersionId: base.id, message: "second" }, actor)).rejects.toBeInstanceOf(ConflictError);
    expect((await current()).constitution.overlays.medical?.description).toBe("First editor.");
  });

  it("lets exactly one of two simultaneous saves from one base win", async () => {
    const base = await current();
    const results = await Promise.allSettled(
      ["Racer A.", "Racer B."].map((d) => constitutionVersions.saveOverlay({ domain: "medical", text: medicalWith(base, d), baseVersionId: base.id, message: d }, actor)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected");
    expect(rejected && rejected.status === "rejected" && rejected.reason).toBeInstanceOf(ConflictError);
  });

  it("refuses a save that changes nothing", async () => {
    const base = await current();
    await expect(constitutionVersions.save({ files: base.files, baseVersionId: base.id, message: "same" }, actor)).rejects.toBeInstanceOf(ValidationError);
  });

  it("rolls back by saving the old content as a new version", async () => {
    const first = (await constitutionVersions.list()).at(-1)!;
    const base = await current();
    const rolled = await constitutionVersions.rollback({ toVersionId: first.id, baseVersionId: base.id }, actor);
    expect(rolled.id).toBeGreaterThan(base.id);
    expect(rolled.contentHash).toBe(first.contentHash);
    expect(rolled.message).toBe(`Roll back to version ${first.id}`);
    expect(contentHash((await current()).files)).toBe(first.contentHash);
    const entry = (await auditLog.list({ objectType: "constitution" })).find((e) => e.objectId === String(rolled.id));
    expect(entry?.action).toBe("constitution.rollback");
  });
});
