import { describe, expect, it } from "vitest";
import { findCycles } from "./find-cycles.js";

function graph(edges: Record<string, string[]>): (node: string) => string[] {
  return (node) => edges[node] ?? [];
}

describe("findCycles", () => {
  it("finds one cycle per component, starting at its first node, in node order", () => {
    const edges = graph({ A: ["B"], B: ["C"], C: ["A", "D"], D: [], E: ["E"], F: ["G"], G: ["F"] });
    expect(findCycles(["A", "B", "C", "D", "E", "F", "G"], edges)).toEqual([
      ["A", "B", "C", "A"],
      ["E", "E"],
      ["F", "G", "F"],
    ]);
  });

  it("reports nothing for acyclic graphs and ignores edges to unknown nodes", () => {
    expect(findCycles(["A", "B"], graph({ A: ["B", "Z"], B: [] }))).toEqual([]);
  });

  it("handles a chain of 100 000 nodes without overflowing the stack", () => {
    const nodes = Array.from({ length: 100_000 }, (_, index) => `N${index}`);
    const edges = (node: string) => {
      const next = Number(node.slice(1)) + 1;
      return [next === nodes.length ? "N0" : `N${next}`];
    };
    const cycles = findCycles(nodes, edges);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]?.length).toBe(100_001);
  });
});
