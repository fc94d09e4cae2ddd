import { defaultKeyHasher } from "@better-auth/api-key";
import { describe, expect, it } from "vitest";
import { hashApiKey } from "./api-keys";

// Keys made by the api-key plugin (or before Charter hashed them itself) must still be found.
describe("hashApiKey", () => {
  it("is SHA-256 in base64url without padding", () => {
    expect(hashApiKey("chk_abcDEF123+/=é")).toBe("ug4E0wy_3QaHJVdHyWs0HWH9oG4wRHBJMN7qihFH2LU");
  });

  it.each(["", "chk_warm_up_is_refused", "x".repeat(300), "clé 🔑"])(
    "is the api-key plugin's own hash of %j",
    async (secret) => {
      expect(hashApiKey(secret)).toBe(await defaultKeyHasher(secret));
    },
  );
});
