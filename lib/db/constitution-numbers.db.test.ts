import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConstitutionFiles, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { setupTestDatabase, unique } from "@/test/db";
import { db } from "./client";
import { constitutionVersions } from "./constitution";
import { saveVersion } from "./constitution-save";

// Version numbers people see have no gaps: a save that rolled back (here, its audit row
// refused) leaves no number behind; a tester saw a first import fail under load and the
// shipped constitution then saved as version 2, with no version 1.

let teardown: () => Promise<void>;
const actor = { id: null, label: "numbers-test" };

beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
});
afterAll(() => teardown());

async function refusingAudit<T>(work: () => Promise<T>): Promise<T> {
  await db().$executeRawUnsafe(`
    CREATE OR REPLACE FUNCTION charter_test_refuse_save_audit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'audit refused by the test'; END $$`);
  await db().$executeRawUnsafe(
    `CREATE TRIGGER charter_test_refuse_save_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION charter_test_refuse_save_audit()`,
  );
  try {
    return await work();
  } finally {
    await db().$executeRawUnsafe(`DROP TRIGGER charter_test_refuse_save_audit ON audit_log`);
    await db().$executeRawUnsafe(`DROP FUNCTION charter_test_refuse_save_audit()`);
  }
}

describe("constitution version numbers", () => {
  it("start at 1 after a first import that rolled back, and go on without a gap", async () => {
    const files = await readConstitutionFiles(SHIPPED_CONSTITUTION_DIR);
    const already = await constitutionVersions.current();
    // Content no version holds yet, so a database other tests share never says "nothing changed".
    const marked = (label: string) =>
      files.map((f) =>
        f.path === "core.yaml" ? { ...f, text: `${f.text}\n# ${unique(label)}\n` } : f,
      );
    await refusingAudit(() =>
      expect(
        saveVersion(
          {
            files: already ? marked("first") : files,
            baseVersionId: already?.id ?? null,
            message: "first",
          },
          actor,
        ),
      ).rejects.toThrow(/audit refused by the test/),
    );
    const first = already ?? (await constitutionVersions.importIfEmpty(files, "shipped"))!;
    if (!already) expect(first.id).toBe(1);

    // Numbered after the highest version stored (a rollback or another test may have stored one past the head).
    const highest = async () =>
      Number(
        (
          await db().$queryRaw<
            { n: number }[]
          >`SELECT coalesce(max(id), 0)::int AS n FROM constitution_version`
        )[0]!.n,
      );
    const edited = marked("edited");
    const before = await highest();
    await refusingAudit(() =>
      expect(
        saveVersion({ files: edited, baseVersionId: first.id, message: "edit" }, actor),
      ).rejects.toThrow(/audit refused by the test/),
    );
    const next = await saveVersion(
      { files: edited, baseVersionId: first.id, message: "edit" },
      actor,
    );
    expect(next.id).toBe(before + 1);
  });
});
