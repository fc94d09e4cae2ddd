import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SEED_FORMAT_EXAMPLE, SEED_MIXED_INPUT, SEED_MIXED_OUTPUT } from "@/lib/playbook";
import { EXIT } from "./errors";

const BIN = path.resolve(import.meta.dirname, "../bin/charter.mjs");
const dir = mkdtempSync(path.join(os.tmpdir(), "charter-playbook-"));

function charter(args: string[], input?: string) {
  return spawnSync(process.execPath, [BIN, "playbook", ...args], { input, encoding: "utf8", timeout: 60_000 });
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
    expect(JSON.parse(result.stdout)).toEqual({ version: "1.0", last_updated: null, key_points: [] });
    expect(result.stderr).toMatch(/no playbook file/);
  }, 60_000);

  it("format prints the seed's lines", () => {
    const file = path.join(dir, "format.json");
    writeFileSync(file, JSON.stringify({ version: "1.0", last_updated: null, key_points: SEED_FORMAT_EXAMPLE.entries }));
    expect(charter(["format", "--file", file]).stdout.trim()).toBe(SEED_FORMAT_EXAMPLE.output);
  }, 60_000);

  it("update --prune approval lists candidates and keeps them; --write saves with last_updated", () => {
    const file = path.join(dir, "update.json");
    writeFileSync(file, JSON.stringify({ version: "1.0", last_updated: null, key_points: [{ name: "kpt_001", text: "a", helpful: 0, harmful: 2 }] }));
    const extraction = JSON.stringify({ new_key_points: ["b"], evaluations: [{ name: "kpt_001", rating: "harmful" }] });
    const approval = charter(["update", "--file", file, "--prune", "approval"], extraction);
    expect(approval.status, approval.stderr).toBe(EXIT.ok);
    const body = JSON.parse(approval.stdout) as { playbook: { key_points: unknown[] }; prune_candidates: { name: string }[] };
    expect(body.playbook.key_points).toHaveLength(2);
    expect(body.prune_candidates.map((c) => c.name)).toEqual(["kpt_001"]);
    const auto = charter(["update", "--file", file, "--write"], extraction);
    expect(auto.status).toBe(EXIT.ok);
    const saved = JSON.parse(readFileSync(file, "utf8")) as { last_updated: string; key_points: { name: string }[] };
    expect(saved.key_points.map((k) => k.name)).toEqual(["kpt_002"]);
    expect(Number.isNaN(Date.parse(saved.last_updated))).toBe(false);
  }, 60_000);

  it("refuses a bad extraction and a bad --prune", () => {
    const file = path.join(dir, "bad.json");
    expect(charter(["update", "--file", file], '{"new_key_points": [""]}').status).toBe(EXIT.invalid);
    expect(charter(["update", "--file", file, "--prune", "never"], "{}").status).toBe(EXIT.usage);
  }, 60_000);
});
