import type { ScoreDict, TurnResultInput, Weights } from "./schema";

/**
 * Seed 000's worked examples and tables as data: each row is an input and the
 * outcome the seed states for it. The engine is checked against these rows, and
 * `charter score` documentation points at them.
 */
export type SeedRewardCase = {
  name: string;
  turn: TurnResultInput;
  hasMutations: boolean;
  expect: Partial<ScoreDict> & {
    weightedTotal?: number;
    weightedTotalBelow?: number;
    joyBelow?: number;
  };
};

const tools = (names: string[]) => names.map((name) => ({ name }));

export const SEED_REWARD_EXAMPLES: readonly SeedRewardCase[] = [
  {
    name: "basic usage: one successful write, acknowledged",
    turn: {
      response: "I've successfully updated the file!",
      tools: [{ name: "write_file", status: "success" }],
      tools_passed: true,
    },
    hasMutations: true,
    expect: { ethical: 0.9, composable: 1.0, joy_inducing: 1.0 },
  },
  {
    name: "example 1: perfect turn",
    turn: {
      response: "I've analyzed the code and found 3 potential issues.",
      tools: tools(["read_file"]),
      tools_passed: true,
    },
    hasMutations: false,
    expect: { ethical: 1.0, composable: 1.0, joy_inducing: 1.0, weightedTotal: 8.7 },
  },
  {
    name: "example 2: unacknowledged mutations",
    turn: { response: "Done!", tools: tools(["write_file", "delete_file"]), tools_passed: false },
    hasMutations: true,
    expect: { ethical: 0.5, joyBelow: 1.0, weightedTotalBelow: 8.7 },
  },
  {
    name: "example 3: tool overuse",
    turn: {
      response: "I've refactored the entire codebase!",
      tools: tools([
        "read_file",
        "write_file",
        "move_file",
        "delete_file",
        "create_dir",
        "write_file",
        "write_file",
        "write_file",
      ]),
      tools_passed: true,
    },
    hasMutations: true,
    expect: { composable: 0.7, ethical: 0.9 },
  },
  {
    name: "ethical: perfect",
    turn: { tools_passed: true },
    hasMutations: false,
    expect: { ethical: 1.0 },
  },
  {
    name: "ethical: unacknowledged mutations",
    turn: { tools_passed: false },
    hasMutations: true,
    expect: { ethical: 0.5 },
  },
  {
    name: "composable: one tool",
    turn: { tools: tools(["read_file"]) },
    hasMutations: false,
    expect: { composable: 1.0 },
  },
  {
    name: "composable: ten tools",
    turn: { tools: tools(Array.from({ length: 10 }, (_, i) => `tool_${i}`)) },
    hasMutations: false,
    expect: { composable: 0.5 },
  },
  {
    name: "joy: thoughtful response",
    turn: { response: "Here's a thoughtful response!" },
    hasMutations: false,
    expect: { joy_inducing: 1.0 },
  },
  {
    name: "joy: 'OK'",
    turn: { response: "OK" },
    hasMutations: false,
    expect: { joy_inducing: 0.55 },
  },
];

/** Seed 000's tables: tool counts to COMPOSABLE, response lengths to JOY_INDUCING. */
export const SEED_COMPOSABLE_TABLE: readonly [tools: number, score: number][] = [
  [0, 1.0],
  [1, 1.0],
  [5, 1.0],
  [6, 0.9],
  [8, 0.7],
  [10, 0.5],
  [15, 0.5],
];
export const SEED_JOY_TABLE: readonly [length: number, score: number][] = [
  [0, 0.3],
  [1, 0.525],
  [2, 0.55],
  [10, 0.75],
  [19, 0.975],
  [20, 1.0],
  [200, 1.0],
];
export const SEED_ETHICAL_TABLE: readonly [
  hasMutations: boolean,
  toolsPassed: boolean,
  score: number,
][] = [
  [false, true, 1.0],
  [false, false, 1.0],
  [true, true, 0.9],
  [true, false, 0.5],
];

/** Seed 000's weighted totals: default weights give 8.7; {ethical: 3, composable: 2} with the rest at 1.0 give 10.0. */
export const SEED_WEIGHT_EXAMPLES: readonly { weights?: Weights; total: number }[] = [
  { total: 8.7 },
  { weights: { ethical: 3.0, composable: 2.0 }, total: 10.0 },
];

/** Seed 000's serialization examples. */
export const SEED_DICT_EXAMPLES = {
  roundTrip: { ethical: 0.8, composable: 0.9 },
  partial: { input: { ethical: 0.5 }, ethical: 0.5, composable: 1.0 },
} as const;

/** Charter's GENERATIVE rule as a table: context utilization to score. */
export const GENERATIVE_TABLE: readonly [utilization: number | undefined, score: number][] = [
  [undefined, 1.0],
  [0, 1.0],
  [0.5, 1.0],
  [0.8999, 1.0],
  [0.9, 1.0],
  [0.92, 0.9],
  [0.95, 0.75],
  [0.99, 0.55],
  [1.0, 0.5],
];
