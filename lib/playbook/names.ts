/**
 * The number in a `kpt_NNN` name as the ACE fork reads it (`int(name.split("_")[1])`
 * for names starting `kpt_`): `kpt_007` is 7, `kpt_12_x` is 12; `kpt_abc`, `kpt_` and
 * names not starting `kpt_` have none.
 */
export function kptNumber(name: string): bigint | null {
  const match = /^kpt_(\d+)(?:_|$)/.exec(name);
  return match ? BigInt(match[1]!) : null;
}

export function formatKeypointName(n: bigint | number): string {
  return `kpt_${String(n).padStart(3, "0")}`;
}

/** The highest `kpt_` number among the names (0 when there is none). */
export function highestKptNumber(names: Iterable<string>): bigint {
  let max = 0n;
  for (const name of names) {
    const n = kptNumber(name);
    if (n !== null && n > max) max = n;
  }
  return max;
}
