/** A stored weight set as the dashboard shows it (lib/db/weights.ts reads it). */
export type WeightSetRow = {
  id: number;
  weights: Record<string, number>;
  authorLabel: string;
  message: string;
  createdAt: Date;
  maxTotal: number;
};
