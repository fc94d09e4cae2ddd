import { formatKeypointName } from "@/lib/playbook";
import type { Tx } from "./transaction";

/** Key point names come from the sequence key_point_name_seq: never reused, even after a prune, and safe under concurrent reflections. */
export async function nextName(tx: Tx): Promise<string> {
  const [row] = await tx.$queryRaw<{ n: bigint }[]>`SELECT nextval('key_point_name_seq') AS n`;
  return formatKeypointName(row!.n);
}

/** The largest `kpt_` number the sequence (a bigint) can move past. */
const MAX_SEQUENCE = 10n ** 18n;

/**
 * Moves the name sequence past `atLeast` and past every stored `kpt_` number (as
 * the playbook spec numbers them: `kpt_12_x` is 12), never backwards; other names do not count.
 */
export async function moveSequencePast(tx: Tx, atLeast: bigint): Promise<void> {
  const floor = atLeast < MAX_SEQUENCE ? atLeast : 0n;
  await tx.$executeRaw`
    SELECT setval('key_point_name_seq', GREATEST(v, 1), v > 0) FROM (
      SELECT GREATEST(
        (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM key_point_name_seq),
        (SELECT coalesce(max(substring(name from '^kpt_([0-9]{1,18})(?:_|$)')::bigint), 0) FROM key_point),
        ${floor}::bigint) AS v) AS target`;
}
