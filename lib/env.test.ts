import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  baseUrl,
  databaseTarget,
  embeddingSettings,
  EnvError,
  parseEnv,
  retrievalPath,
} from "./env";

describe("parseEnv", () => {
  it("gives a zero-config environment: embedded database in .charter", () => {
    const e = parseEnv({});
    expect(e.DATABASE_URL).toBeUndefined();
    expect(databaseTarget(e)).toEqual({
      kind: "embedded",
      dir: path.resolve(".charter", "pglite"),
    });
    expect(baseUrl(e)).toBe("http://127.0.0.1:3000");
  });

  it("uses PostgreSQL when DATABASE_URL is set", () => {
    const url = "postgresql://postgres@127.0.0.1:5432/charter";
    expect(databaseTarget(parseEnv({ DATABASE_URL: url }))).toEqual({ kind: "postgres", url });
    expect(databaseTarget(parseEnv({ DATABASE_URL: "  " }))).toMatchObject({ kind: "embedded" });
  });

  it.each([
    ["mysql://root@localhost/charter"],
    ["not a url"],
    ["postgresql://"],
    ["file:///tmp/x"],
  ])("rejects DATABASE_URL=%s with a message naming the variable", (value) => {
    expect(() => parseEnv({ DATABASE_URL: value })).toThrow(EnvError);
    expect(() => parseEnv({ DATABASE_URL: value })).toThrow(
      /^DATABASE_URL: must be a postgresql:\/\//,
    );
  });

  it("names every bad variable, one per line", () => {
    try {
      parseEnv({
        DATABASE_URL: "nope",
        BETTER_AUTH_SECRET: "short",
        BETTER_AUTH_URL: "ftp://x",
        CHARTER_ADMIN_EMAIL: "me",
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      const lines = (error as EnvError).message.split("\n");
      expect(lines.map((l) => l.split(":")[0])).toEqual([
        "DATABASE_URL",
        "BETTER_AUTH_SECRET",
        "BETTER_AUTH_URL",
        "CHARTER_ADMIN_EMAIL",
      ]);
    }
  });

  it("trims a trailing slash from the base URL", () => {
    expect(baseUrl(parseEnv({ BETTER_AUTH_URL: "https://charter.example.com/" }))).toBe(
      "https://charter.example.com",
    );
  });

  it.each([
    ["nothing is configured", {}],
    ["only the model is set", { CHARTER_EMBEDDING_MODEL: "text-embedding-3-small" }],
    ["an endpoint but no model", { OPENAI_API_KEY: "sk-test" }],
    ["a blank model", { OPENAI_API_KEY: "sk-test", CHARTER_EMBEDDING_MODEL: "  " }],
  ])("has no embedding settings when %s", (_label, vars) => {
    expect(embeddingSettings(parseEnv(vars))).toBeNull();
  });

  it("embeds on the LLM's endpoint and key with its timeout", () => {
    expect(
      embeddingSettings(
        parseEnv({
          OPENAI_API_KEY: "sk-test",
          CHARTER_EMBEDDING_MODEL: " text-embedding-3-small ",
          CHARTER_LLM_TIMEOUT_MS: "2000",
        }),
      ),
    ).toEqual({
      baseURL: undefined,
      apiKey: "sk-test",
      model: "text-embedding-3-small",
      timeoutMs: 2000,
      promptTimeoutMs: 600,
    });
    expect(
      embeddingSettings(
        parseEnv({
          OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
          CHARTER_EMBEDDING_MODEL: "nomic-embed-text",
        }),
      ),
    ).toEqual({
      baseURL: "http://127.0.0.1:11434/v1",
      apiKey: "not-needed",
      model: "nomic-embed-text",
      timeoutMs: 15_000,
      promptTimeoutMs: 600,
    });
  });
});

describe("retrieval path settings", () => {
  it.each([
    [{}, "lexical"],
    [{ OPENAI_API_KEY: "k" }, "llm"],
    [{ OPENAI_API_KEY: "k", CHARTER_EMBEDDING_MODEL: "m" }, "hybrid"],
    [
      { OPENAI_API_KEY: "k", CHARTER_EMBEDDING_MODEL: "m", CHARTER_RETRIEVAL_PATH: "lexical" },
      "lexical",
    ],
  ] as const)("%j retrieves on the %s path", (vars, path) => {
    expect(retrievalPath(parseEnv(vars))).toBe(path);
  });

  it.each([
    [
      { CHARTER_RETRIEVAL_PATH: "hybrid" },
      "CHARTER_RETRIEVAL_PATH: hybrid needs CHARTER_EMBEDDING_MODEL and OPENAI_BASE_URL or OPENAI_API_KEY",
    ],
    [
      { CHARTER_RETRIEVAL_PATH: "llm" },
      "CHARTER_RETRIEVAL_PATH: llm needs OPENAI_BASE_URL or OPENAI_API_KEY",
    ],
    [
      { CHARTER_SEMANTIC_FLOOR: "0.6", CHARTER_SEMANTIC_CEILING: "0.5" },
      "CHARTER_SEMANTIC_CEILING: must be greater than CHARTER_SEMANTIC_FLOOR",
    ],
  ])("refuses %j, naming what is missing", (vars, message) => {
    expect(() => parseEnv(vars)).toThrow(message);
  });
});
