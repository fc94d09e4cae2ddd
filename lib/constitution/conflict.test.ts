import { describe, expect, it } from "vitest";
import { comparePrecedence, orderByPrecedence, resolveConflict } from "./conflict";
import type { Level } from "./schema";
import { SEED_CONFLICT_EXAMPLE } from "@/test/fixtures/seeds/constitution";

type Side = { id: string; level: Level; priority: number; domain: string | null };

const p = (id: string, level: Level, priority: number, domain: string | null = null): Side => ({
  id,
  level,
  priority,
  domain,
});

/** A small deterministic PRNG (mulberry32), so shuffles are reproducible. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: readonly T[], seed: number): T[] {
  const next = random(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe("resolveConflict: the seed's example", () => {
  const { a, b, winner } = SEED_CONFLICT_EXAMPLE;

  it.each([
    ["a, b", a, b],
    ["b, a", b, a],
  ] as const)("%s: %s prevails", (_order, first, second) => {
    expect(resolveConflict<Side>(first, second).id).toBe(winner);
  });
});

/** Each table pits a winner against a loser that only a later rule would favour. */
const RULES: { rule: string; rows: [label: string, winner: Side, loser: Side][] }[] = [
  {
    rule: "1. a hard constraint beats a soft norm",
    rows: [
      ["even at a lower priority", p("CORE.H.1", "hard", 85), p("SOFT.S.1", "soft", 100)],
      ["even at the lowest priority", p("CORE.H.1", "hard", 1), p("SOFT.S.1", "soft", 84)],
      [
        "even against a more specific soft norm",
        p("CORE.H.1", "hard", 85),
        p("MED.S.1", "soft", 84, "medical"),
      ],
      [
        "even against a soft norm with a smaller id",
        p("Z.H.1", "hard", 90),
        p("A.S.1", "soft", 90),
      ],
    ],
  },
  {
    rule: "2. within a level, the higher priority wins",
    rows: [
      ["soft, by one point", p("SOFT.A.1", "soft", 71), p("SOFT.B.1", "soft", 70)],
      ["hard, over a smaller id", p("Z.H.1", "hard", 100), p("A.H.1", "hard", 95)],
      [
        "over a more specific principle",
        p("SOFT.HELPFUL.1", "soft", 80),
        p("MED.DISCLAIMER.1", "soft", 79, "medical"),
      ],
    ],
  },
  {
    rule: "3. on equal level and priority, a domain principle beats a core one",
    rows: [
      ["soft, over a smaller id", p("Z.MED.1", "soft", 70, "medical"), p("A.CORE.1", "soft", 70)],
      ["hard", p("MED.EMERGENCY.1", "hard", 100, "medical"), p("CORE.NM.1", "hard", 100)],
    ],
  },
  {
    rule: "4. then the smaller id wins",
    rows: [
      ["two core principles", p("SOFT.A.1", "soft", 60), p("SOFT.B.1", "soft", 60)],
      [
        "two domain principles of different domains",
        p("LEGAL.X.1", "hard", 90, "legal"),
        p("MED.X.1", "hard", 90, "medical"),
      ],
      [
        "ids that differ in the last character",
        p("CORE.X.1", "hard", 95),
        p("CORE.X.2", "hard", 95),
      ],
    ],
  },
];

describe.each(RULES)("precedence rule $rule", ({ rows }) => {
  it.each(rows)("%s", (_label, winner, loser) => {
    expect(resolveConflict(winner, loser)).toBe(winner);
    expect(resolveConflict(loser, winner)).toBe(winner);
    expect(comparePrecedence(winner, loser)).toBeLessThan(0);
    expect(comparePrecedence(loser, winner)).toBeGreaterThan(0);
  });
});

describe("comparePrecedence", () => {
  it("is zero only for principles that are equal in every compared field", () => {
    expect(comparePrecedence(p("A.1", "soft", 50), p("A.1", "soft", 50))).toBe(0);
    expect(resolveConflict(p("A.1", "soft", 50), p("A.1", "soft", 50))).toEqual(
      p("A.1", "soft", 50),
    );
  });
});

describe("orderByPrecedence", () => {
  const expected: Side[] = [
    p("MED.EMERGENCY.1", "hard", 100, "medical"),
    p("CORE.CSAM.1", "hard", 100),
    p("CORE.NM.1", "hard", 100),
    p("CORE.NM.2", "hard", 95),
    p("CORE.DUALUSE.1", "hard", 91),
    p("CORE.PRIV.1", "hard", 90),
    p("SOFT.HONEST.1", "soft", 85),
    p("MED.DISCLAIMER.1", "soft", 80, "medical"),
    p("SOFT.HELPFUL.1", "soft", 75),
    p("LEGAL.INFO.1", "soft", 60, "legal"),
    p("MED.INFO.1", "soft", 60, "medical"),
    p("SOFT.AUTONOMY.1", "soft", 60),
    p("SOFT.BALANCED.1", "soft", 60),
    p("SOFT.CLARITY.1", "soft", 40),
  ];

  it.each([1, 2, 3, 42, 1234, 99_999])(
    "sorts a list shuffled with seed %i into precedence order",
    (seed) => {
      const shuffled = shuffle(expected, seed);
      expect(orderByPrecedence(shuffled)).toEqual(expected);
    },
  );

  it("gives the same order whatever the input order", () => {
    const orders = new Set(
      Array.from({ length: 50 }, (_, seed) =>
        JSON.stringify(orderByPrecedence(shuffle(expected, seed))),
      ),
    );
    expect(orders.size).toBe(1);
  });

  it("keeps the input order of principles that tie on every rule (stable)", () => {
    const tied = ["first", "second", "third"].map((tag) => ({
      ...p("SOFT.SAME.1", "soft", 60),
      tag,
    }));
    const list = [p("SOFT.Z.1", "soft", 30), ...tied, p("CORE.H.1", "hard", 90)];
    expect(orderByPrecedence(list).map((x) => ("tag" in x ? x.tag : x.id))).toEqual([
      "CORE.H.1",
      "first",
      "second",
      "third",
      "SOFT.Z.1",
    ]);
  });

  it("returns a new array and leaves its input alone", () => {
    const input = shuffle(expected, 7);
    const before = [...input];
    const ordered = orderByPrecedence(input);
    expect(ordered).not.toBe(input);
    expect(input).toEqual(before);
  });

  it("handles an empty list and a single principle", () => {
    expect(orderByPrecedence([])).toEqual([]);
    expect(orderByPrecedence([p("A.1", "soft", 50)])).toEqual([p("A.1", "soft", 50)]);
  });
});
