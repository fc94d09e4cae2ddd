/** Seed 004's tables and examples as data; the tests run them row by row. */
export const SEED_MIGRATION_TABLE: readonly [score: number, helpful: number, harmful: number][] = [
  [5, 5, 0],
  [0, 0, 0],
  [-3, 0, 3],
  [-7, 0, 7],
];

export const SEED_PRUNE_TABLE: readonly [helpful: number, harmful: number, pruned: boolean][] = [
  [0, 0, false],
  [0, 2, false],
  [0, 3, true],
  [1, 4, true],
  [10, 4, false],
  [3, 3, false],
  [5, 6, true],
  [0, 100, true],
];

export const SEED_MIXED_INPUT = {
  version: "1.0",
  last_updated: "2026-01-15T10:00:00",
  key_points: [
    "Use type hints",
    { name: "kpt_002", text: "Prefer pathlib" },
    { name: "kpt_003", text: "Avoid globals", score: -3 },
    { name: "kpt_004", text: "Write tests", helpful: 8, harmful: 2 },
  ],
};

export const SEED_MIXED_OUTPUT = {
  version: "1.0",
  last_updated: "2026-01-15T10:00:00",
  key_points: [
    { name: "kpt_001", text: "Use type hints", helpful: 0, harmful: 0 },
    { name: "kpt_002", text: "Prefer pathlib", helpful: 0, harmful: 0 },
    { name: "kpt_003", text: "Avoid globals", helpful: 0, harmful: 3 },
    { name: "kpt_004", text: "Write tests", helpful: 8, harmful: 2 },
  ],
};

export const SEED_FORMAT_EXAMPLE = {
  entries: [
    {
      name: "kpt_001",
      text: "Always use type hints for function signatures",
      helpful: 5,
      harmful: 1,
    },
    {
      name: "kpt_002",
      text: "Prefer pathlib over os.path for file operations",
      helpful: 0,
      harmful: 0,
    },
    { name: "kpt_003", text: "Write unit tests before implementation", helpful: 12, harmful: 3 },
  ],
  output: [
    "[kpt_001] helpful=5 harmful=1 :: Always use type hints for function signatures",
    "[kpt_002] helpful=0 harmful=0 :: Prefer pathlib over os.path for file operations",
    "[kpt_003] helpful=12 harmful=3 :: Write unit tests before implementation",
  ].join("\n"),
};

export const SEED_EMPTY_PLAYBOOK = { version: "1.0", last_updated: null, key_points: [] };
