import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { constitutionVersions } from "@/lib/db/constitution";
import { turns } from "@/lib/db/turns";
import { agentEventSchema } from "@/lib/schemas/events";
import { ingestEvents } from "@/lib/services/ingest";
import { setupTestDatabaseWithConstitution, unique } from "@/test/db";
import { overrideScoreAction } from "./override-score";
import { saveOverlayAction } from "./save-overlay";

// Many editors at once: every answer is the outcome or a refusal that says what to do
// (409 conflict with the version in force, 503 try again), never "internal". A tester saw
// 6 of 25 concurrent overlay saves and 15 of 300 score overrides answer "internal".
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("@/lib/auth/caller", async (actual) => ({
  ...(await actual<typeof import("@/lib/auth/caller")>()),
  resolveCaller: async () => ({
    kind: "user",
    userId: "contention-editor",
    email: "editor@example.test",
    name: "Editor",
    role: "editor",
  }),
}));

let teardown: () => Promise<void>;

beforeAll(async () => {
  ({ teardown } = await setupTestDatabaseWithConstitution());
});
afterAll(() => teardown());

const codes = (results: { ok: boolean; error?: { code: string } }[]) =>
  results.reduce<Record<string, number>>((out, r) => {
    const key = r.ok ? "ok" : r.error!.code;
    out[key] = (out[key] ?? 0) + 1;
    return out;
  }, {});

describe("concurrent editors", () => {
  it("25 saves of one overlay on one base version: one saved, the rest told of the conflict", async () => {
    const base = (await constitutionVersions.current())!;
    const text = base.files.find((f) => f.path === "overlays/medical.yaml")!.text;
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        saveOverlayAction({
          domain: "medical",
          baseVersionId: base.id,
          text: `${text}\n# edit ${i}\n`,
          message: `edit ${i}`,
        }),
      ),
    );
    const counted = codes(results);
    expect(counted.internal ?? 0).toBe(0);
    expect(counted.ok).toBe(1);
    expect((counted.conflict ?? 0) + (counted.unavailable ?? 0)).toBe(24);
    // The version numbers people see have no gaps: the save is the base's successor.
    expect((await constitutionVersions.current())!.id).toBe(base.id + 1);
  });

  it("300 overrides of one turn's scores at once: each applied or told to try again", async () => {
    const session = unique("contention");
    await ingestEvents(
      [
        { type: "UserPromptSubmit", prompt: "rename the helper and update its callers" },
        { type: "Stop", response: "Renamed the helper and updated its three callers." },
      ].map((e) => agentEventSchema.parse({ ...e, id: unique("evt"), session_id: session })),
    );
    const [turn] = (await turns.list({ sessionId: session })).rows;
    const principles = ["tasteful", "joy_inducing", "ethical"] as const;
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        overrideScoreAction({
          turnId: turn!.id,
          principle: principles[i % principles.length]!,
          value: (i % 10) / 10,
          reason: `review ${i}`,
        }),
      ),
    );
    const counted = codes(results);
    expect(counted.internal ?? 0).toBe(0);
    expect((counted.ok ?? 0) + (counted.unavailable ?? 0) + (counted.conflict ?? 0)).toBe(300);
    expect(counted.ok ?? 0).toBeGreaterThan(0);
  });
});
