import { describe, expect, it } from "vitest";
import { asRole, roleAtLeast, ROLES } from "./roles";

describe("roles", () => {
  // Every pair: a role reaches exactly the roles at or below its rank.
  const pairs = ROLES.flatMap((role, i) =>
    ROLES.map((minimum, j) => [role, minimum, i >= j] as const),
  );
  it.each(pairs)("%s reaches %s: %s", (role, minimum, expected) => {
    expect(roleAtLeast(role, minimum)).toBe(expected);
  });

  it.each([null, undefined, "", "superuser", "ADMIN"])(
    "an unknown role %j reaches nothing",
    (role) => {
      for (const minimum of ROLES) expect(roleAtLeast(role, minimum)).toBe(false);
      expect(asRole(role)).toBe("viewer");
    },
  );
});
