import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import {
  CORE_FILE,
  serializeConstitution,
  serializeOverlay,
  type Principle,
} from "@/lib/constitution";
import { ConflictError, ValidationError } from "@/lib/errors";
import { readConstitutionFiles, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { setupTestDatabase, testPgUrl } from "@/test/db";
import { auditLog } from "./audit";
import { changeBus } from "./change-bus";
import { db, switchDatabase } from "./client";
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

/** The version's core.yaml with its first principle changed. */
function coreWith(
  version: Awaited<ReturnType<typeof current>>,
  change: Partial<Principle>,
): string {
  const [first, ...rest] = version.constitution.core;
  return serializeConstitution({
    ...version.constitution,
    core: [{ ...first!, ...change }, ...rest],
  }).find((f) => f.path === CORE_FILE)!.text;
}

describe("constitution versions", () => {
  it("imports once: a second import on a non-empty database does nothing", async () => {
    expect(await constitutionVersions.importIfEmpty((await current()).files, "again")).toBeNull();
  });

  it("saves an overlay edit as a new immutable version, audited", async () => {
    const base = await current();
    const saved = await constitutionVersions.saveOverlay(
      {
        domain: "medical",
        text: medicalWith(base, "Health questions and symptoms."),
        baseVersionId: base.id,
        message: "shorter description",
      },
      actor,
    );
    expect(saved.id).toBeGreaterThan(base.id);
    expect(saved.parentId).toBe(base.id);
    const after = await current();
    expect(after.id).toBe(saved.id);
    expect(after.constitution.overlays.medical?.description).toBe("Health questions and symptoms.");
    // The base version is unchanged.
    expect(
      (await constitutionVersions.get(base.id)).constitution.overlays.medical?.description,
    ).not.toBe("Health questions and symptoms.");
    const entry = (await auditLog.list({ objectType: "constitution" })).find(
      (e) => e.objectId === String(saved.id),
    );
    expect(entry).toMatchObject({
      action: "constitution.save_overlay",
      actorLabel: "test-editor",
      before: { version: base.id },
      after: { version: saved.id, file: "overlays/medical.yaml" },
    });
  });

  it("saves an edit of core.yaml as a new version, audited with the file", async () => {
    const base = await current();
    const priority = base.constitution.core[0]!.priority === 99 ? 98 : 99;
    const saved = await constitutionVersions.saveFile(
      {
        path: CORE_FILE,
        text: coreWith(base, { priority }),
        baseVersionId: base.id,
        message: "core priority",
        action: "constitution.save_core",
      },
      actor,
    );
    expect(saved.parentId).toBe(base.id);
    const after = await current();
    expect(after.id).toBe(saved.id);
    expect(after.constitution.core[0]?.priority).toBe(priority);
    // Only core.yaml changed: every other file is carried over as it was.
    expect(after.files.filter((f) => f.path !== CORE_FILE)).toEqual(
      base.files.filter((f) => f.path !== CORE_FILE),
    );
    const entry = (await auditLog.list({ objectType: "constitution" })).find(
      (e) => e.objectId === String(saved.id),
    );
    expect(entry).toMatchObject({
      action: "constitution.save_core",
      actorLabel: "test-editor",
      before: { version: base.id },
      after: { version: saved.id, file: CORE_FILE, message: "core priority" },
    });
  });

  it("refuses an invalid core.yaml with located issues and writes nothing", async () => {
    const base = await current();
    const before = await db().constitutionVersion.count();
    const error = await constitutionVersions
      .saveFile(
        {
          path: CORE_FILE,
          text: coreWith(base, { priority: 150 }),
          baseVersionId: base.id,
          message: "bad core",
          action: "constitution.save_core",
        },
        actor,
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConstitutionInvalidError);
    expect((error as ConstitutionInvalidError).issues).toEqual([
      expect.objectContaining({
        file: CORE_FILE,
        field: "principles[0].priority",
        reason: "must be between 1 and 100",
      }),
    ]);
    expect(await db().constitutionVersion.count()).toBe(before);
    expect((await current()).id).toBe(base.id);
  });

  it("refuses a core.yaml that breaks another file, locating the issue there", async () => {
    const base = await current();
    // A core principle taking an overlay principle's id (since issue 12 an override of a removed principle is only a warning).
    const medical = base.constitution.overlays.medical!.additional_principles[0]!;
    const taken = serializeConstitution({
      ...base.constitution,
      core: [...base.constitution.core, { ...medical, domain: null }],
    }).find((f) => f.path === CORE_FILE)!.text;
    const error = await constitutionVersions
      .saveFile(
        {
          path: CORE_FILE,
          text: taken,
          baseVersionId: base.id,
          message: "take an overlay's id",
          action: "constitution.save_core",
        },
        actor,
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConstitutionInvalidError);
    expect(
      (error as ConstitutionInvalidError).issues.some(
        (i) =>
          i.file === "overlays/medical.yaml" &&
          i.reason.includes(`"${medical.id}" is already defined at core.yaml`),
      ),
    ).toBe(true);
    expect((await current()).id).toBe(base.id);
  });

  it("refuses a core save from a stale base with a conflict", async () => {
    const base = await current();
    await constitutionVersions.saveFile(
      {
        path: CORE_FILE,
        text: coreWith(base, { title: "First editor's title" }),
        baseVersionId: base.id,
        message: "first",
        action: "constitution.save_core",
      },
      actor,
    );
    await expect(
      constitutionVersions.saveFile(
        {
          path: CORE_FILE,
          text: coreWith(base, { title: "Second editor's title" }),
          baseVersionId: base.id,
          message: "second",
          action: "constitution.save_core",
        },
        actor,
      ),
    ).rejects.toBeInstanceOf(ConflictError);
    expect((await current()).constitution.core[0]?.title).toBe("First editor's title");
  });

  it("replaces an overlay's .yml twin instead of keeping both", async () => {
    const base = await current();
    const medical = base.files.find((f) => f.path === "overlays/medical.yaml")!;
    const asYml = await constitutionVersions.save(
      {
        files: [
          ...base.files.filter((f) => f !== medical),
          { path: "overlays/medical.yml", text: medicalWith(base, "Kept as .yml.") },
        ],
        baseVersionId: base.id,
        message: "as .yml",
      },
      actor,
    );
    const saved = await constitutionVersions.saveOverlay(
      {
        domain: "medical",
        text: medicalWith(base, "Back to .yaml."),
        baseVersionId: asYml.id,
        message: "back",
      },
      actor,
    );
    const paths = (await constitutionVersions.get(saved.id)).files
      .map((f) => f.path)
      .filter((p) => p.startsWith("overlays/medical."));
    expect(paths).toEqual(["overlays/medical.yaml"]);
    expect((await current()).constitution.overlays.medical?.description).toBe("Back to .yaml.");
  });

  it("refuses an invalid overlay with located issues and writes nothing", async () => {
    const base = await current();
    const before = await db().constitutionVersion.count();
    const text = medicalWith(base, "x").replace(/priority: 80/, "priority: 150");
    const error = await constitutionVersions
      .saveOverlay({ domain: "medical", text, baseVersionId: base.id, message: "bad" }, actor)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConstitutionInvalidError);
    const issue = (error as ConstitutionInvalidError).issues.find(
      (i) => i.file === "overlays/medical.yaml",
    );
    expect(issue).toMatchObject({ reason: "must be between 1 and 100" });
    expect(issue!.line).toBeGreaterThan(1);
    expect(await db().constitutionVersion.count()).toBe(before);
    expect((await current()).id).toBe(base.id);
  });

  it("refuses a save from a stale base with a conflict", async () => {
    const base = await current();
    await constitutionVersions.saveOverlay(
      {
        domain: "medical",
        text: medicalWith(base, "First editor."),
        baseVersionId: base.id,
        message: "first",
      },
      actor,
    );
    await expect(
      constitutionVersions.saveOverlay(
        {
          domain: "medical",
          text: medicalWith(base, "Second editor."),
          baseVersionId: base.id,
          message: "second",
        },
        actor,
      ),
    ).rejects.toBeInstanceOf(ConflictError);
    expect((await current()).constitution.overlays.medical?.description).toBe("First editor.");
  });

  it("lets exactly one of two simultaneous saves from one base win", async () => {
    const base = await current();
    const results = await Promise.allSettled(
      ["Racer A.", "Racer B."].map((d) =>
        constitutionVersions.saveOverlay(
          { domain: "medical", text: medicalWith(base, d), baseVersionId: base.id, message: d },
          actor,
        ),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected");
    expect(rejected && rejected.status === "rejected" && rejected.reason).toBeInstanceOf(
      ConflictError,
    );
  });

  it("refuses a save that changes nothing", async () => {
    const base = await current();
    await expect(
      constitutionVersions.save(
        { files: base.files, baseVersionId: base.id, message: "same" },
        actor,
      ),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it("rolls back by saving the old content as a new version", async () => {
    const first = (await constitutionVersions.list()).at(-1)!;
    const base = await current();
    const rolled = await constitutionVersions.rollback(
      { toVersionId: first.id, baseVersionId: base.id },
      actor,
    );
    expect(rolled.id).toBeGreaterThan(base.id);
    expect(rolled.contentHash).toBe(first.contentHash);
    expect(rolled.message).toBe(`Roll back to version ${first.id}`);
    expect(contentHash((await current()).files)).toBe(first.contentHash);
    const entry = (await auditLog.list({ objectType: "constitution" })).find(
      (e) => e.objectId === String(rolled.id),
    );
    expect(entry?.action).toBe("constitution.rollback");
  });
});

// The embedded database cannot be made unreachable.
describe.runIf(inject("pgUrl") !== null)("the version in force under a database fault", () => {
  it("is never an older version: a lookup that fails for the database's sake fails, and the same version is served once it is back", async () => {
    const before = await constitutionVersions.current();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const url = new URL(testPgUrl()!);
    url.port = String(port);
    await switchDatabase({ kind: "postgres", url: url.toString() });
    try {
      await expect(constitutionVersions.current()).rejects.toThrow();
    } finally {
      await switchDatabase({ kind: "postgres", url: testPgUrl()! });
    }
    expect((await constitutionVersions.current())?.id).toBe(before?.id);
  });
});

describe("the version in force when reading it fails", () => {
  it("fails rather than serve an older version when the head's row cannot be read (a pool timeout)", async () => {
    const head = await constitutionVersions.current();
    // A new head, not yet parsed in this process, so it must be read.
    const row = await db().constitutionVersion.create({
      data: {
        contentHash: `${head!.contentHash}-copy-${Date.now()}`,
        files: head!.files,
        authorLabel: "test",
        message: "copy",
        parentId: head!.id,
      },
    });
    await db().constitutionHead.update({ where: { id: 1 }, data: { versionId: row.id } });
    // Written past the repository: announced by hand, as the repository would.
    await changeBus.announce({ topic: "constitution" });
    const get = vi
      .spyOn(constitutionVersions, "get")
      .mockRejectedValueOnce(new Error("timeout exceeded when trying to connect"));
    try {
      await expect(constitutionVersions.current()).rejects.toThrow(
        "timeout exceeded when trying to connect",
      );
    } finally {
      get.mockRestore();
    }
    expect((await constitutionVersions.current())?.id).toBe(row.id);
  });
});
