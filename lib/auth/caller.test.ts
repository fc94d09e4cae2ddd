import { describe, expect, it } from "vitest";
import { allows, apiKeyFrom, callerLabel, type Caller } from "./caller";

const user = (role: "viewer" | "editor" | "approver" | "admin"): Caller => ({
  kind: "user",
  userId: "u1",
  email: "a@b.c",
  name: "A",
  role,
});
const key = (...scopes: ("ingest" | "read")[]): Caller => ({
  kind: "api_key",
  keyId: "k1",
  name: "agent",
  ownerId: "u1",
  scopes,
});

describe("allows", () => {
  it.each([
    [user("viewer"), { role: "viewer" as const }, true],
    [user("viewer"), { role: "editor" as const }, false],
    [user("admin"), { role: "approver" as const }, true],
    [key("read"), { role: "viewer" as const, scope: "read" as const }, true],
    [key("ingest"), { role: "viewer" as const, scope: "read" as const }, false],
    [key("ingest", "read"), { role: "admin" as const }, false],
    [key(), { role: "viewer" as const, scope: "ingest" as const }, false],
  ])("%o for %o: %s", (caller, access, expected) => {
    expect(allows(caller, access)).toBe(expected);
  });

  it("labels callers for the audit log", () => {
    expect(callerLabel(user("admin"))).toBe("a@b.c");
    expect(callerLabel(key("read"))).toBe("api-key:agent");
  });
});

describe("apiKeyFrom", () => {
  it.each([
    [{ "x-api-key": "chk_abc" }, "chk_abc"],
    [{ authorization: "Bearer chk_def" }, "chk_def"],
    [{ authorization: "Basic xyz" }, null],
    [{}, null],
  ])("%o -> %s", (headers, expected) => {
    expect(apiKeyFrom(new Headers(headers))).toBe(expected);
  });
});
