/** A share (0..1) as a whole percentage: 0.5 -> "50%". */
export function percent(value: number): string {
  return `${(value * 100).toFixed(0)}%`;
}
