/** A share (0..1) as a whole percentage: 0.5 -> "50%". */
export function percent(value: number): string {
  return `${(value * 100).toFixed(0)}%`;
}

/** A trust or credit value with a fixed number of decimals; null (never used) as an em dash. */
export function fixed(value: number | null, decimals = 3): string {
  return value === null ? "—" : value.toFixed(decimals);
}
