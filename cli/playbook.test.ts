import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  SEED_FORMAT_EXAMPLE,
  SEED_MIXED_INPUT,
  SEED_MIXED_OUTPUT,
} from "@/test/fixtures/seeds/playbook";
import { EXIT } from "./errors";

const BIN = path.resolve(import.meta.dirname, "../bin/charter.mjs");
const dir = mkdtempSync(path.join(os.tmpdir(), "charter-playbook-"));

function charter(args: string[], input?: string) {
  return spawnSync(process.execPath, [BIN, "playbook", ...args], {
    input,
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("charter playbook on files", () => {
  it("load migrates the seed's mixed example", () => {
    const file = path.join(dir, "mixed.json");
    writeFileSync(file, JSON.stringify(SEED_MIXED_INPUT));
    const result = charter(["load", "--file", file]);
    expect(result.status).toBe(EXIT.ok);
    expect(JSON.parse(result.stdout)).toEqual(SEED_MIXED_OUTPUT);
  }, 60_000);

  it("load of a missing file prints the empty playbook and warns", () => {
    const result = charter(["load", "--file", path.join(dir, "nope.json")]);
    expect(result.status).toBe(EXIT.ok);
    expect(JSON.parse(result.stdout)).toEqual({
      version: "1.0",
      last_updated: null,
      key_points: [],
    });
    expect(result.stderr).toMatch(/no playbook file/);
  }, 60_000);

  it("format prints the seed's lines", () => {
    const file = path.join(dir, "format.json");
    writeFileSync(
      file,
      JSON.stringify({
        version: "1.0",
        last_updated: null,
        key_points: SEED_FORMAT_EXAMPLE.entries,
      }),
    );
    expect(charter(["format", "--file", file]).stdout.trim()).toBe(SEED_FORMAT_EXAMPLE.output);
  }, 60_000);

  it("update --prune approval lists candidates and keeps them; --write saves with last_updated", () => {
    const file = path.join(dir, "update.json");
    writeFileSync(
      file,
      JSON.stringify({
        version: "1.0",
        last_updated: null,
        key_points: [{ name: "kpt_001", text: "a", helpful: 0, harmful: 2 }],
      }),
    );
    const extraction = JSON.stringify({
      new_key_points: ["b"],
      evaluations: [{ name: "kpt_001", rating: "harmful" }],
    });
    const approval = charter(["update", "--file", file, "--prune", "approval"], extraction);
    expect(approval.status, approval.stderr).toBe(EXIT.ok);
    const body = JSON.parse(approval.stdout) as {
      playbook: { key_points: unknown[] };
      prune_candidates: { name: string }[];
    };
    expect(body.playbook.key_points).toHaveLength(2);
    expect(body.prune_candidates.map((c) => c.name)).toEqual(["kpt_001"]);
    const auto = charter(["update", "--file", file, "--write"], extraction);
    expect(auto.status).toBe(EXIT.ok);
    const saved = JSON.parse(readFileSync(file, "utf8")) as {
      last_updated: string;
      key_points: { name: string }[];
    };
    expect(saved.key_points.map((k) => k.name)).toEqual(["kpt_002"]);
    expect(Number.isNaN(Date.parse(saved.last_updated))).toBe(false);
  }, 60_000);

  it("refuses what is not an ExtractionResult at all, and a bad --prune, changing nothing", () => {
    const file = path.join(dir, "bad.json");
    writeFileSync(file, '{"version": "1.0", "last_updated": null, "key_points": ["a"]}');
    const list = charter(
      ["update", "--file", file, "--write"],
      '[{"name": "kpt_001", "rating": "helpful"}]',
    );
    expect(list.status).toBe(EXIT.invalid);
    expect(list.stderr).toMatch(/invalid extraction result: \(root\): .*expected object/);
    expect(charter(["update", "--file", file, "--write"], "not json").status).toBe(EXIT.invalid);
    expect(charter(["update", "--file", file, "--prune", "never"], "{}").status).toBe(EXIT.usage);
    expect(readFileSync(file, "utf8")).toBe(
      '{"version": "1.0", "last_updated": null, "key_points": ["a"]}',
    );
  }, 60_000);

  it("update skips malformed items and duplicate texts with a warning on stderr naming each, applies the rest, exits 0", () => {
    const file = path.join(dir, "partial.json");
    writeFileSync(
      file,
      JSON.stringify({
        version: "1.0",
        last_updated: "2026-01-15T10:00:00",
        key_points: [{ name: "kpt_001", text: "Prefer pathlib", helpful: 1, harmful: 0 }],
      }),
    );
    const extraction = {
      new_key_points: ["", "Prefer pathlib", "Log with structure"],
      evaluations: [
        { name: "kpt_001" },
        { rating: "helpful" },
        { name: "kpt_001", rating: "helpful" },
      ],
    };
    const result = charter(["update", "--file", file, "--write"], JSON.stringify(extraction));
    expect(result.status, result.stderr).toBe(EXIT.ok);
    expect(result.stderr.trim().split("\n")).toEqual([
      "charter: stdin: new_key_points[0] is empty: skipped",
      "charter: stdin: evaluations[0] (kpt_001) has no rating: skipped",
      "charter: stdin: evaluations[1] has no name: skipped",
      `charter: ${file}: the new key point "Prefer pathlib" has the same text as kpt_001: skipped`,
    ]);
    const saved = JSON.parse(readFileSync(file, "utf8")) as { key_points: unknown[] };
    expect(saved.key_points).toEqual([
      { name: "kpt_001", text: "Prefer pathlib", helpful: 2, harmful: 0 },
      { name: "kpt_002", text: "Log with structure", helpful: 0, harmful: 0 },
    ]);
    expect((JSON.parse(result.stdout) as { warnings: string[] }).warnings).toHaveLength(4);
  }, 60_000);

  it("load and --write keep other names, entry fields, top-level fields, version and last_updated", () => {
    const file = path.join(dir, "extras.json");
    writeFileSync(
      file,
      JSON.stringify({
        version: "0.9",
        last_updated: "2026-01-15T10:00:00",
        owner: "team-a",
        key_points: [
          {
            name: "style-1",
            text: "Keep functions short",
            section: "STYLE",
            helpful: 2,
            harmful: 0,
          },
        ],
      }),
    );
    const loaded = charter(["load", "--file", file]);
    expect(loaded.status).toBe(EXIT.ok);
    expect(loaded.stderr).toBe("");
    expect(JSON.parse(loaded.stdout)).toEqual({
      version: "0.9",
      last_updated: "2026-01-15T10:00:00",
      owner: "team-a",
      key_points: [
        { name: "style-1", text: "Keep functions short", section: "STYLE", helpful: 2, harmful: 0 },
      ],
    });
    const updated = charter(
      ["update", "--file", file, "--write"],
      '{"new_key_points": ["Name things well"]}',
    );
    expect(updated.status, updated.stderr).toBe(EXIT.ok);
    const saved = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    expect(saved).toMatchObject({
      version: "0.9",
      owner: "team-a",
      key_points: [
        { name: "style-1", section: "STYLE" },
        { name: "kpt_001", text: "Name things well" },
      ],
    });
  }, 60_000);

  it("a file without key_points keeps its version and last_updated, with a warning", () => {
    const file = path.join(dir, "no-points.json");
    writeFileSync(file, '{"version": "1.0", "last_updated": "2026-01-15T10:00:00"}');
    const result = charter(["load", "--file", file]);
    expect(result.status).toBe(EXIT.ok);
    expect(JSON.parse(result.stdout)).toEqual({
      version: "1.0",
      last_updated: "2026-01-15T10:00:00",
      key_points: [],
    });
    expect(result.stderr).toMatch(/has no key_points/);
  }, 60_000);
});
