import { describe, expect, it } from "vitest";
import { calibrateSemantic, gridEdges, SEMANTIC_FLOORS, SEMANTIC_WIDTHS } from "./eval-store";
import type { SemanticSimilarities } from "./hybrid";
import { parseConstitution } from "./parse";
import { formatIssue } from "./schema";

const parsed = parseConstitution([
  {
    path: "core.yaml",
    text: "principles:\n  - {id: CORE.A.1, level: hard, priority: 90, title: Safety, rule: Be safe., keywords: [pipe bomb]}\n",
  },
  {
    path: "overlays/children.yaml",
    text: "keywords: [toddler, preschool]\nadditional_principles:\n  - {id: CHILD.AGE.1, level: soft, priority: 70, title: Age Appropriate, rule: Keep it age appropriate., keywords: [bedtime story]}\n",
  },
  {
    path: "eval/main.yaml",
    text: `thresholds: {principle_hit_rate: 1, trap_rate: 0}
cases:
  - {prompt: "a tale about a sleepy bunny for my four year old", domains: [children], expect: [CHILD.AGE.1]}
  - {prompt: "what time is it in lima", domains: [], forbid: ["CHILD.*"]}
`,
  },
]);
if (!parsed.ok) throw new Error(parsed.issues.map(formatIssue).join("\n"));
const { constitution, evals } = parsed;

/** A model that puts every text above 0.9: the related at `related`, the rest at `unrelated`. */
function crowded(related: number, unrelated: number) {
  return (prompt: string): SemanticSimilarities => {
    const near = prompt.includes("bunny") ? related : unrelated;
    return {
      domains: new Map([["children", near]]),
      principles: new Map([
        ["CHILD.AGE.1", near],
        ["CORE.A.1", unrelated],
      ]),
    };
  };
}

describe("the semantic calibration's grid", () => {
  it("tries every floor up to 0.95, each with every width that keeps its ceiling at 1 or under", async () => {
    const points = await calibrateSemantic(constitution, evals, crowded(0.97, 0.92));
    expect(Math.max(...SEMANTIC_FLOORS)).toBe(0.95);
    expect([...new Set(points.map((p) => p.semantic_floor))].sort((a, b) => a - b)).toEqual([
      ...SEMANTIC_FLOORS,
    ]);
    expect(points.every((p) => p.semantic_ceiling <= 1)).toBe(true);
    expect(points.find((p) => p.semantic_floor === 0.95)?.semantic_ceiling).toBe(1);
  });

  it("finds a floor above 0.6 for a model whose unrelated texts sit at 0.92, which floors up to 0.6 cannot", async () => {
    const [best] = await calibrateSemantic(constitution, evals, crowded(0.97, 0.92));
    expect(best!.report.passed).toBe(true);
    expect(best!.semantic_floor).toBeGreaterThan(0.6);
    const upTo06 = SEMANTIC_FLOORS.filter((f) => f <= 0.6);
    const [old] = await calibrateSemantic(constitution, evals, crowded(0.97, 0.92), {}, upTo06);
    expect(old!.report.passed).toBe(false);
  });

  it("says when the best point is on the grid's edge, where a better one may lie beyond it", async () => {
    // Only the highest floor, 0.95 with the ceiling 0.05 above it, tells 0.995 from 0.975.
    const [best] = await calibrateSemantic(constitution, evals, crowded(0.995, 0.975));
    expect(best).toMatchObject({ semantic_floor: 0.95, semantic_ceiling: 1 });
    expect(best!.report.passed).toBe(true);
    expect(best!.edges).toEqual([
      "floor 0.95 is the highest tried",
      "ceiling 1 is the nearest to its floor tried (0.05 above it)",
    ]);
    const [inside] = await calibrateSemantic(constitution, evals, crowded(0.97, 0.92));
    expect(inside!.edges).toEqual([]);
  });

  it("prefers a point inside the grid among points that meet the thresholds equally", async () => {
    // Similarities that change nothing: every point gives the same report.
    const [best] = await calibrateSemantic(constitution, evals, crowded(0, 0));
    expect(best!.edges).toEqual([]);
  });

  it.each([
    [0.3, 0.5, []],
    [0.1, 0.3, ["floor 0.1 is the lowest tried"]],
    [
      0.95,
      1,
      [
        "floor 0.95 is the highest tried",
        "ceiling 1 is the nearest to its floor tried (0.05 above it)",
      ],
    ],
    [0.4, 0.45, ["ceiling 0.45 is the nearest to its floor tried (0.05 above it)"]],
    [0.5, 0.9, ["ceiling 0.9 is the farthest from its floor tried (0.4 above it)"]],
    [0.6, 1, []],
  ])("floor %d, ceiling %d: on the edge because %j", (floor, ceiling, edges) => {
    expect(gridEdges({ semantic_floor: floor, semantic_ceiling: ceiling })).toEqual(edges);
    expect(SEMANTIC_WIDTHS).toContain(Math.round((ceiling - floor) * 100) / 100);
  });
});
