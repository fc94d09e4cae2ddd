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

/**
 * The playbook spec's generate_keypoint_name as the ACE fork has it: the highest `kpt_` number
 * among the names seen, plus one (`kpt_001` when there is none). Never the lowest free
 * number, so a name removed from the file is not handed to a new point while a higher
 * one remains; names that are not `kpt_NNN` are ignored.
 */
export function generateKeypointName(seen: Iterable<string>): string {
  return formatKeypointName(highestKptNumber(seen) + 1n);
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
