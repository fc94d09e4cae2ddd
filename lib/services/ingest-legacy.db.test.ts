import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConstitutionFile } from "@/lib/constitution";
import { changeBus } from "@/lib/db/change-bus";
import { db } from "@/lib/db/client";
import { constitutionVersions } from "@/lib/db/constitution";
import { agentEventSchema } from "@/lib/schemas/events";
import { setupTestDatabase, unique } from "@/test/db";
import { ensureConstitution } from "./constitution";
import { ingestEvents } from "./ingest";

let teardown: () => Promise<void>;
let headBefore: number;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
  headBefore = (await db().constitutionHead.findUniqueOrThrow({ where: { id: 1 } })).versionId;
});
afterAll(async () => {
  await db().constitutionHead.update({ where: { id: 1 }, data: { versionId: headBefore } });
  // Written past the repository: announced by hand, as the repository would.
  await changeBus.announce({ topic: "constitution" });
  await teardown();
});

describe("a version stored before NULs were refused", () => {
  it("still serves prompts: the NUL in a principle's title never fails the batch", async () => {
    const current = await constitutionVersions.current();
    // As an old Charter stored it: a YAML escape that parses to a NUL, written to the row directly.
    const files: ConstitutionFile[] = current!.files.map((f) =>
      f.path === "overlays/coding.yaml"
        ? {
            ...f,
            text: f.text.replace(
              'title: "Never Fake Passing Tests"',
              'title: "Never Fake\\0 Passing Tests"',
            ),
          }
        : f,
    );
    expect(files.find((f) => f.path === "overlays/coding.yaml")!.text).toContain(
      '"Never Fake\\0 Passing Tests"',
    );
    const row = await db().constitutionVersion.create({
      data: {
        contentHash: unique("legacy"),
        files,
        authorLabel: "legacy",
        message: "stored before NULs were refused",
        parentId: current!.id,
      },
    });
    await db().constitutionHead.update({ where: { id: 1 }, data: { versionId: row.id } });
    // Written past the repository: announced by hand, as the repository would.
    await changeBus.announce({ topic: "constitution" });

    const session = unique("legacy");
    const response = await ingestEvents([
      agentEventSchema.parse({
        type: "UserPromptSubmit",
        id: unique("evt"),
        session_id: session,
        prompt: "fix the failing login test in my repo",
      }),
    ]);
    const principle = response.results[0]!.principles!.find((p) => p.id === "CODE.TESTS.1");
    expect(principle?.title).toBe("Never Fake\u0000 Passing Tests");
    const stored = await db().agentEvent.findFirstOrThrow({ where: { sessionId: session } });
    const storedTitle = (
      stored.result as { principles: { id: string; title: string }[] }
    ).principles.find((p) => p.id === "CODE.TESTS.1")!.title;
    expect(storedTitle).toBe("Never Fake\uFFFD Passing Tests");
  });
});
