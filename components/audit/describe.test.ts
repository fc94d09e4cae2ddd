import { describe, expect, it } from "vitest";
import { auditObject, fieldChanges, valueText, type AuditNames } from "./describe";

const names: AuditNames = {
  users: new Map([["u1", "alice@example.test"]]),
  keys: new Map([["k1", "agent-ci"]]),
};

describe("fieldChanges", () => {
  it.each([
    [
      "a role change",
      { role: "viewer" },
      { role: "editor" },
      [{ field: "role", before: "viewer", after: "editor" }],
    ],
    [
      "a creation: every field, nothing before",
      undefined,
      { email: "a@x.test", role: "admin" },
      [
        { field: "email", before: "—", after: "a@x.test" },
        { field: "role", before: "—", after: "admin" },
      ],
    ],
    [
      "unchanged fields are left out",
      { status: "proposed", helpful: 1 },
      { status: "active", helpful: 1 },
      [{ field: "status", before: "proposed", after: "active" }],
    ],
    [
      "nested objects by dotted path; weights with two decimals",
      { weights: { a: 1.5, b: 2 } },
      { weights: { a: 1.5, b: 3 } },
      [{ field: "weights.b", before: "2.00", after: "3.00" }],
    ],
    [
      "a score override on the 0..1 scale",
      { principle: "p", value: 1 },
      { principle: "p", value: 0.25 },
      [{ field: "value", before: "1.000", after: "0.250" }],
    ],
    [
      "booleans in words",
      { enabled: true },
      { enabled: false },
      [{ field: "enabled", before: "yes", after: "no" }],
    ],
  ])("%s", (_name, before, after, expected) => {
    expect(fieldChanges(before, after, names)).toEqual(expected);
  });

  it("shows a key's owner by e-mail", () => {
    expect(fieldChanges(undefined, { name: "agent-ci", ownerId: "u1" }, names)).toContainEqual({
      field: "ownerId",
      before: "—",
      after: "alice@example.test",
    });
  });
});

describe("valueText", () => {
  it.each([
    [0.6854, "0.685"],
    [1, "1"],
    [8.5, "8.50"],
    [12345, "12,345"],
    [["ingest", "read"], "ingest, read"],
    [null, "—"],
  ])("%j reads %s", (value, text) => {
    expect(valueText(value)).toBe(text);
  });

  it("shortens a content hash to its first 12 digits, and only a hash", () => {
    const hash = "c777d14511351d1b7534a5d07aa1e7aca19ef2dc3ba0000000000000000000ff";
    expect(valueText(hash, "content_hash")).toBe("c777d1451135…");
    expect(valueText(hash, "message")).toBe(hash);
    expect(valueText("not-hex", "content_hash")).toBe("not-hex");
  });
});

describe("auditObject", () => {
  const entry = (objectType: string, objectId: string, after?: unknown) => ({
    objectType,
    objectId,
    before: undefined,
    after,
  });
  it.each([
    [
      "an overlay save names the overlay",
      entry("constitution", "12", { version: 12, file: "overlays/medical.yaml" }),
      { kind: "overlay", name: "medical (version 12)" },
    ],
    [
      "a core save",
      entry("constitution", "3", { version: 3, file: "core.yaml" }),
      { kind: "constitution", name: "core, version 3" },
    ],
    [
      "a rollback (whole constitution)",
      entry("constitution", "4", { version: 4 }),
      { kind: "constitution", name: "version 4" },
    ],
    ["a user by e-mail", entry("user", "u1"), { kind: "user", name: "alice@example.test" }],
    [
      "a revoked key by its name",
      entry("api_key", "k1", { enabled: false }),
      { kind: "key", name: "agent-ci" },
    ],
    [
      "a new key by its recorded name",
      entry("api_key", "k2", { name: "laptop" }),
      { kind: "key", name: "laptop" },
    ],
  ])("%s", (_name, e, expected) => {
    expect(auditObject(e, names)).toMatchObject(expected);
  });
});
