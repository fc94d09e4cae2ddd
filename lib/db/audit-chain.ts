import { createHash } from "node:crypto";
import type { ChainBreak, ChainBreakKind } from "@/lib/schemas/audit-rows";

/**
 * The audit log's hash chain, recomputed in TypeScript. The database writes the
 * chain (the `audit_log_chain` trigger, migration 20261126090000_audit_chain);
 * this module checks it without trusting any function stored in the database, so
 * a role that replaced the trigger or the hash function cannot also fake the check.
 */

/** prev_hash of the first row. */
export const GENESIS_HASH = "0".repeat(64);

/** Tags the canonical text; a new serialization needs a new tag in SQL and here. */
export const CANONICAL_VERSION = "charter-audit-v1";

/** A row as the verifier reads it: every field as PostgreSQL prints it (jsonb as text, `at` as UTC ISO with ms). */
export type ChainRow = {
  seq: string | null;
  id: string;
  at: string;
  actorId: string | null;
  actorLabel: string;
  action: string;
  objectType: string;
  objectId: string;
  before: string | null;
  after: string | null;
  prevHash: string | null;
  hash: string | null;
};

/** The text a row's hash is taken over, as `audit_log_canonical` builds it: each field "<octets>:<value>" or "~", one per line. */
export function canonicalText(row: Omit<ChainRow, "hash">): string {
  const fields = [
    row.seq,
    row.id,
    row.at,
    row.actorId,
    row.actorLabel,
    row.action,
    row.objectType,
    row.objectId,
    row.before,
    row.after,
    row.prevHash,
  ];
  return (
    CANONICAL_VERSION +
    fields.map((f) => `\n${f === null ? "~" : `${Buffer.byteLength(f, "utf8")}:${f}`}`).join("")
  );
}

/** SHA-256 (hex) of a row's canonical text. */
export function rowHash(row: Omit<ChainRow, "hash">): string {
  return createHash("sha256").update(canonicalText(row), "utf8").digest("hex");
}

export type { ChainBreak, ChainBreakKind };

/** The last row checked, carried from one batch to the next. */
export type ChainCursor = { seq: bigint; hash: string | null; at: string };

/**
 * Checks rows in chain order against each other and against `previous` (the row
 * before the first one, or null when the first is the chain's start; `anchorOnly`
 * when the first row starts a window whose predecessor is not read). Returns the
 * breaks and the cursor for the next batch. Each row names at most one link break
 * (a gap explains its prev_hash mismatch) besides an edit.
 */
export function checkRows(
  rows: ChainRow[],
  previous: ChainCursor | null,
  options: { anchorOnly?: boolean } = {},
): { breaks: ChainBreak[]; last: ChainCursor | null } {
  const breaks: ChainBreak[] = [];
  let prev = previous;
  let first = true;
  for (const row of rows) {
    const at = (reason: string, kind: ChainBreakKind) =>
      breaks.push({ seq: row.seq, id: row.id, kind, reason });
    const label = `row ${row.seq ?? `id ${row.id}`}`;
    if (
      row.seq === null ||
      row.hash === null ||
      row.prevHash === null ||
      BigInt(row.seq) < 1n ||
      row.hash === ""
    ) {
      at(
        `${label} (id ${row.id}) has no place in the chain: it was written with the chain trigger off`,
        "unchained",
      );
      continue;
    }
    const seq = BigInt(row.seq);
    if (rowHash(row) !== row.hash)
      at(`${label}: hash mismatch, its content was changed after it was written`, "edited");
    const skipLink = first && options.anchorOnly;
    if (!skipLink) {
      if (prev === null) {
        if (seq !== 1n) at(`rows 1–${seq - 1n} are missing before ${label}: deleted`, "missing");
        else if (row.prevHash !== GENESIS_HASH)
          at(`${label}: prev_hash is not the start of the chain`, "relinked");
      } else if (seq === prev.seq) {
        at(`${label} appears twice: a row was inserted into the chain`, "duplicate");
      } else if (seq > prev.seq + 1n) {
        const from = prev.seq + 1n;
        const to = seq - 1n;
        at(
          `${from === to ? `row ${from} is` : `rows ${from}–${to} are`} missing before ${label}: deleted`,
          "missing",
        );
      } else if (row.prevHash !== prev.hash) {
        at(
          `${label}: prev_hash does not match row ${prev.seq}'s hash, a row before it was removed, replaced or inserted`,
          "relinked",
        );
      }
      if (prev !== null && row.at < prev.at) {
        at(
          `${label}: written at ${row.at}, before row ${prev.seq} (${prev.at}): inserted out of order or back-dated`,
          "out_of_order",
        );
      }
    }
    prev = { seq, hash: row.hash, at: row.at };
    first = false;
  }
  return { breaks, last: prev };
}

/** A row and hash recorded earlier (`charter audit verify` prints them as through and headHash). */
export type ExpectedHead = { seq: bigint; hash: string };

/** Parses "<seq>:<hash>", as `--expect-head` takes it; null when malformed. */
export function parseExpectedHead(text: string): ExpectedHead | null {
  const match = /^([1-9][0-9]{0,18}):([0-9a-f]{64})$/.exec(text.trim().toLowerCase());
  return match ? { seq: BigInt(match[1]!), hash: match[2]! } : null;
}
