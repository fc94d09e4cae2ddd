/** One rating stored as evidence for a key point's counts. */
export type EvaluationView = {
  id: string;
  rating: string;
  sessionId: string | null;
  createdAt: string;
};

/** A prune proposal with its evidence, as the prune queue shows it. */
export type ProposalView = {
  name: string;
  text: string;
  helpful: number;
  harmful: number;
  /** False when the counts changed after it was proposed (an import can do that). */
  meetsRule: boolean;
  /** The most recent rating events; `eventCount` is how many there are in all. */
  events: EvaluationView[];
  eventCount: number;
};
