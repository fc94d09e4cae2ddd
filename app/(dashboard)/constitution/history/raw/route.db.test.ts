import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CORE_FILE } from "@/lib/constitution";
import { constitutionVersions } from "@/lib/db/constitution";
import { setupTestDatabaseWithConstitution } from "@/test/db";
import { GET } from "./route";

vi.mock("@/lib/auth/caller", async (actual) => ({
  ...(await actual<typeof import("@/lib/auth/caller")>()),
  resolveCaller: async (headers: Headers) =>
    headers.get("x-test-user")
      ? {
          kind: "user",
          userId: "raw-viewer",
          email: "viewer@example.test",
          name: "Viewer",
          role: "viewer",
        }
      : null,
}));

let teardown: () => Promise<void>;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabaseWithConstitution());
});
afterAll(() => teardown());

const get = (query: string, signedIn = true) =>
  GET(
    new Request(`http://localhost/constitution/history/raw?${query}`, {
      headers: signedIn ? { "x-test-user": "1" } : {},
    }),
    { params: Promise.resolve({}) },
  );

describe("GET /constitution/history/raw", () => {
  it("sends one file of a version as stored, as a download", async () => {
    const version = (await constitutionVersions.current())!;
    const response = await get(`version=${version.id}&path=${encodeURIComponent(CORE_FILE)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="v${version.id}-core.yaml"`,
    );
    expect(await response.text()).toBe(version.files.find((f) => f.path === CORE_FILE)!.text);
  });

  it.each([
    [
      "a file the version does not have",
      (id: number) => `version=${id}&path=overlays/astrology.yaml`,
      404,
    ],
    ["a version that does not exist", () => "version=999999&path=core.yaml", 404],
    ["a version that is not a number", () => "version=latest&path=core.yaml", 422],
  ])("refuses %s", async (_label, query, status) => {
    const version = (await constitutionVersions.current())!;
    expect((await get(query(version.id))).status).toBe(status);
  });

  it("needs a signed-in viewer", async () => {
    expect((await get("version=1&path=core.yaml", false)).status).toBe(401);
  });
});
