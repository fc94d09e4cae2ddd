export type ChainBreakKind =
  "edited" | "missing" | "relinked" | "out_of_order" | "duplicate" | "unchained" | "rewritten";

/** One place where the chain does not hold, named by the row where it shows. */
export type ChainBreak = { seq: string | null; id: string; kind: ChainBreakKind; reason: string };

/** The result of walking the chain: intact, or the list of breaks, each naming its row. */
export type ChainReport = {
  intact: boolean;
  /** Rows read. */
  rows: number;
  /** seq of the first row checked; "1" when the walk started at the chain's start. */
  from: string | null;
  /** seq and hash of the last row checked: record them to detect later removal of the newest rows. */
  through: string | null;
  headHash: string | null;
  /** False when only the newest rows were checked (a window). */
  complete: boolean;
  breaks: ChainBreak[];
  /** Breaks found beyond `maxBreaks`, counted but not listed. */
  breaksOmitted: number;
};
