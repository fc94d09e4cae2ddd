import { describe, expect, it } from "vitest";
import { canonicalText, checkRows, GENESIS_HASH, rowHash, type ChainRow } from "./audit-chain";

/** A chain of `n` well-formed rows, one second apart. */
function chain(n: number): ChainRow[] {
  const rows: ChainRow[] = [];
  for (let i = 1; i <= n; i += 1) {
    const base = {
      seq: String(i),
      id: String(i),
      at: `2026-01-01T00:00:${String(i).padStart(2, "0")}.000Z`,
      actorId: null,
      actorLabel: "a",
      action: "x",
      objectType: "t",
      objectId: String(i),
      before: null,
      after: `{"n": ${i}}`,
      prevHash: rows.at(-1)?.hash ?? GENESIS_HASH,
    };
    rows.push({ ...base, hash: rowHash(base) });
  }
  return rows;
}

describe("the audit chain check", () => {
  it("writes each field as <bytes>:<value>, NULL as ~, counting bytes not characters", () => {
    const [row] = chain(1);
    expect(
      canonicalText({ ...row!, actorLabel: "é🙂" })
        .split("\n")
        .slice(0, 6),
    ).toEqual(["charter-audit-v1", "1:1", "1:1", "24:2026-01-01T00:00:01.000Z", "~", "6:é🙂"]);
  });

  it("names a first row that does not start from the genesis hash, though its own hash is consistent", () => {
    const [one, two] = chain(2);
    const forged = { ...one!, prevHash: "f".repeat(64) };
    const first = { ...forged, hash: rowHash(forged) };
    const secondBase = { ...two!, prevHash: first.hash };
    const second = { ...secondBase, hash: rowHash(secondBase) };
    expect(checkRows([first, second], null).breaks).toEqual([
      {
        seq: "1",
        id: "1",
        kind: "relinked",
        reason: "row 1: prev_hash is not the start of the chain",
      },
    ]);
  });

  it("finds nothing wrong in an intact chain, and carries the cursor across batches", () => {
    const rows = chain(6);
    const first = checkRows(rows.slice(0, 3), null);
    expect(first.breaks).toEqual([]);
    expect(checkRows(rows.slice(3), first.last).breaks).toEqual([]);
  });

  it.each([
    [
      "edited",
      (rows: ChainRow[]) => rows.map((r) => (r.seq === "2" ? { ...r, action: "forged" } : r)),
      [{ seq: "2", kind: "edited" }],
    ],
    [
      "missing",
      (rows: ChainRow[]) => rows.filter((r) => r.seq !== "3"),
      [{ seq: "4", kind: "missing", reason: "row 3 is missing before row 4: deleted" }],
    ],
    [
      "missing at the start",
      (rows: ChainRow[]) => rows.slice(2),
      [{ seq: "3", kind: "missing", reason: "rows 1–2 are missing before row 3: deleted" }],
    ],
    [
      "duplicate",
      (rows: ChainRow[]) => [...rows.slice(0, 3), { ...rows[2]!, id: "99" }, ...rows.slice(3)],
      [
        { seq: "3", kind: "edited" },
        { seq: "3", kind: "duplicate" },
      ],
    ],
    [
      "out of order",
      (rows: ChainRow[]) =>
        rows.map((r) =>
          r.seq === "4"
            ? {
                ...r,
                at: "2025-01-01T00:00:00.000Z",
                hash: rowHash({ ...r, at: "2025-01-01T00:00:00.000Z" }),
              }
            : r,
        ),
      [
        { seq: "4", kind: "out_of_order" },
        { seq: "5", kind: "relinked" },
      ],
    ],
    [
      "unchained",
      (rows: ChainRow[]) => [{ ...rows[0]!, seq: "0", id: "77", hash: "" }, ...rows],
      [{ seq: "0", kind: "unchained" }],
    ],
  ])("names a row %s", (_name, tamper, expected) => {
    expect(checkRows(tamper(chain(5)), null).breaks).toEqual(
      expected.map((b) => expect.objectContaining(b)),
    );
  });

  it("takes a window's first link on trust, but not its hash", () => {
    const rows = chain(5).slice(2);
    expect(checkRows(rows, null, { anchorOnly: true }).breaks).toEqual([]);
    expect(
      checkRows([{ ...rows[0]!, action: "forged" }, ...rows.slice(1)], null, { anchorOnly: true })
        .breaks,
    ).toEqual([expect.objectContaining({ seq: "3", kind: "edited" })]);
  });
});
