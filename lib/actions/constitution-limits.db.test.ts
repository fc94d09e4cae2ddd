import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CORE_FILE, formatIssue } from "@/lib/constitution";
import { formatBytes, MAX_FILE_BYTES } from "@/lib/constitution/limits";
import { constitutionVersions } from "@/lib/db/constitution";
import { setupTestDatabaseWithConstitution } from "@/test/db";
import { previewConstitutionChangeAction } from "./preview-constitution-change";
import { saveCoreAction } from "./save-core";
import { saveOverlayAction } from "./save-overlay";

// The editors' server actions, run as an editor would run them: the action client, its
// schema and the repository behind it. Only the request around them is stood in for.
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("@/lib/auth/caller", async (actual) => ({
  ...(await actual<typeof import("@/lib/auth/caller")>()),
  resolveCaller: async () => ({
    kind: "user",
    userId: "limits-editor",
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

async function current() {
  const version = await constitutionVersions.current();
  if (!version) throw new Error("no constitution");
  return version;
}

const fileOf = (version: Awaited<ReturnType<typeof current>>, path: string) =>
  version.files.find((f) => f.path === path)!.text;

/** `text` with `pattern` replaced, and the 1-based line where the replacement starts. */
function replaced(text: string, pattern: RegExp, by: string): { text: string; line: number } {
  const at = text.search(pattern);
  if (at < 0) throw new Error(`no ${pattern} in the stored file`);
  return { text: text.replace(pattern, by), line: text.slice(0, at).split("\n").length };
}

describe("the constitution editors refuse bad input and save nothing", () => {
  it("an overlay whose title holds a NUL written as an escape", async () => {
    const base = await current();
    const { text, line } = replaced(
      fileOf(base, "overlays/medical.yaml"),
      /title: "?Medical Disclaimer"?/,
      'title: "Medical\\0 Disclaimer"',
    );
    const result = await saveOverlayAction({
      domain: "medical",
      text,
      baseVersionId: base.id,
      message: "NUL title",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("invalid_input");
    expect(result.error.message).toContain(
      `overlays/medical.yaml:${line}:12: additional_principles[0].title: contains a NUL character (U+0000), written as an escape; remove it`,
    );
    expect((await current()).id).toBe(base.id);
  });

  it("core.yaml with a raw escape character, located at the character", async () => {
    const base = await current();
    const { text, line } = replaced(
      fileOf(base, CORE_FILE),
      /title: "?Child Safety"?/,
      "title: Child \u001b[31mSafety",
    );
    const result = await saveCoreAction({ text, baseVersionId: base.id, message: "ESC title" });
    expect(result.ok ? [] : result.error.details).toEqual([
      expect.objectContaining({
        file: CORE_FILE,
        line,
        column: 18,
        field: expect.stringMatching(/^principles\[\d+\]\.title$/),
        reason: "contains a control character (U+001B); remove it",
      }),
    ]);
    expect((await current()).id).toBe(base.id);
  });

  it(`a file over ${formatBytes(MAX_FILE_BYTES)}, refused by the action's schema before the database is asked`, async () => {
    const base = await current();
    const text = `${fileOf(base, "overlays/medical.yaml")}# ${"é".repeat(MAX_FILE_BYTES / 2)}\n`;
    const result = await saveOverlayAction({
      domain: "medical",
      text,
      baseVersionId: base.id,
      message: "huge",
    });
    expect(result.ok ? null : result.error.details).toEqual([
      {
        path: "text",
        message: `The file is ${formatBytes(Buffer.byteLength(text))}; a constitution file may hold at most ${formatBytes(MAX_FILE_BYTES)}.`,
      },
    ]);
    expect((await current()).id).toBe(base.id);
  });

  it("an impact preview of a draft with a lone surrogate (as a browser can send) is refused like a save", async () => {
    const base = await current();
    const { text, line } = replaced(
      fileOf(base, "overlays/medical.yaml"),
      /title: "?Medical Disclaimer"?/,
      "title: Medical \ud800Disclaimer",
    );
    const result = await previewConstitutionChangeAction({
      baseVersionId: base.id,
      path: "overlays/medical.yaml",
      text,
    });
    expect(result.ok ? "previewed" : result.error.message.split("\n").slice(1)).toEqual([
      formatIssue({
        file: "overlays/medical.yaml",
        line,
        column: 20,
        field: "additional_principles[0].title",
        reason: "contains a lone surrogate (U+D800); remove it",
      }),
    ]);
  });
});
