import { describe, expect, it } from "vitest";
import {
  agentOf,
  CLAUDE_CODE,
  clipLine,
  OTHER_AGENT,
  projectOf,
  sessionOrigin,
} from "./session-facts";

describe("sessionOrigin", () => {
  it.each([
    ["api", "/home/dev/.claude/projects/-home-dev-shop/0b6a.jsonl", "hook"],
    ["api", null, "api"],
    ["import", "/home/dev/.claude/projects/x.jsonl", "import"],
    ["dashboard", null, "dashboard"],
    ["hook", null, "hook"],
    ["something-new", null, "api"],
  ] as const)("source %s with transcript %s is %s", (source, transcript, origin) => {
    expect(sessionOrigin(source, transcript)).toBe(origin);
  });
});

describe("agentOf", () => {
  it.each([
    ["hook", CLAUDE_CODE],
    ["import", CLAUDE_CODE],
    ["api", OTHER_AGENT],
    ["dashboard", OTHER_AGENT],
  ] as const)("%s: %s", (origin, agent) => {
    expect(agentOf(origin)).toBe(agent);
  });

  it.each([
    ["hook", "codex", "0.124.0", "Codex 0.124.0"],
    ["hook", "gemini-cli", null, "Gemini CLI"],
    ["import", "cursor", "1.7.2", "Cursor 1.7.2"],
    ["api", "claude-code", null, "Claude Code"],
    ["otel", "my-agents-app", "2.1", "my-agents-app 2.1"],
  ] as const)("%s from %s %s: %s", (origin, agent, version, shown) => {
    expect(agentOf(origin, agent, version)).toBe(shown);
  });
});

describe("projectOf", () => {
  it.each([
    ["/home/dev/shop-api", { name: "shop-api", path: "/home/dev/shop-api" }],
    ["/home/dev/shop-api/", { name: "shop-api", path: "/home/dev/shop-api/" }],
    ["C:\\work\\charter", { name: "charter", path: "C:\\work\\charter" }],
    ["/", { name: "/", path: "/" }],
    ["  ", null],
    [null, null],
  ])("%j is %j", (cwd, project) => {
    expect(projectOf(cwd)).toEqual(project);
  });
});

describe("clipLine", () => {
  it("puts the text on one line and cuts it with an ellipsis", () => {
    expect(clipLine("Fix the\n  failing test", 100)).toBe("Fix the failing test");
    expect(clipLine("abcdefghij", 5)).toBe("abcd…");
    expect(clipLine("abcde", 5)).toBe("abcde");
  });
});
