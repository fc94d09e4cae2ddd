import { describe, expect, it } from "vitest";
import { API_KEY_NAME_MAX_LENGTH } from "@/lib/auth/roles";
import { EnvError, initApiKey, parseEnv } from "@/lib/env";
import { createApiKeySchema } from "@/lib/schemas/api-key";

const SECRET = "chk_init_0123456789abcdefghijklmnopqrstuv";

function problems(source: Record<string, string>): string {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error.message;
    throw error;
  }
  return "";
}

describe("CHARTER_INIT_* variables", () => {
  it.each([
    [{ CHARTER_INIT_API_KEY: "chk_short" }, "CHARTER_INIT_API_KEY: must be at least 32 characters"],
    [
      { CHARTER_INIT_API_KEY: `${SECRET} x` },
      "CHARTER_INIT_API_KEY: must be printable ASCII without spaces",
    ],
    [
      { CHARTER_INIT_API_KEY: SECRET, CHARTER_INIT_API_KEY_SCOPE: "write" },
      "CHARTER_INIT_API_KEY_SCOPE: must be ingest, read or a comma-separated list of them",
    ],
    [
      { CHARTER_INIT_API_KEY: SECRET, CHARTER_INIT_API_KEY_NAME: "n".repeat(65) },
      "CHARTER_INIT_API_KEY_NAME: must be at most 64 characters",
    ],
    [
      { CHARTER_INIT_API_KEY_NAME: "ci" },
      "CHARTER_INIT_API_KEY_NAME: is set but CHARTER_INIT_API_KEY is not",
    ],
    [
      { CHARTER_INIT_API_KEY_SCOPE: "read" },
      "CHARTER_INIT_API_KEY_SCOPE: is set but CHARTER_INIT_API_KEY is not",
    ],
  ])("%j is refused: %s", (source, message) => {
    expect(problems(source)).toBe(message);
  });

  it("never repeats the secret in an error", () => {
    expect(problems({ CHARTER_INIT_API_KEY: `${SECRET} leaked` })).not.toContain(SECRET);
  });

  it.each([
    [{}, null],
    [{ CHARTER_INIT_API_KEY: " ", CHARTER_INIT_API_KEY_NAME: "" }, null],
    [{ CHARTER_INIT_API_KEY: SECRET }, { secret: SECRET, name: "init", scopes: ["ingest"] }],
    [
      {
        CHARTER_INIT_API_KEY: SECRET,
        CHARTER_INIT_API_KEY_NAME: " ci ",
        CHARTER_INIT_API_KEY_SCOPE: "read, ingest,read",
      },
      { secret: SECRET, name: "ci", scopes: ["read", "ingest"] },
    ],
  ])("%j asks for %j", (source, expected) => {
    expect(initApiKey(parseEnv(source))).toEqual(expected);
  });

  it("names keys within the limit the form and the api-key plugin share", () => {
    expect(createApiKeySchema.shape.name.maxLength).toBe(API_KEY_NAME_MAX_LENGTH);
  });
});
