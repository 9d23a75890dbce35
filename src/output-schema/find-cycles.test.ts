import { describe, expect, it } from "vitest";
import { findCycles } from "./find-cycles.js";

const graph = (edges: number[][]): Set<number>[] => edges.map((targets) => new Set(targets));

describe("findCycles", () => {
  it("finds BAML's reference components in deterministic order", () => {
    // BAML's tarjan.rs test graph.
    const cycles = findCycles(graph([[1], [2], [0], [1, 2, 4], [5, 3], [2, 6], [5], [4, 6, 7]]));
    expect(cycles).toEqual([[0, 1, 2], [3, 4], [5, 6], [7]]);
  });
  it("ignores acyclic graphs and single nodes without self edges", () => {
    expect(findCycles(graph([[1], [2, 3], [4], [5], [], []]))).toEqual([]);
  });
  it("rotates each cycle to start at its smallest node", () => {
    expect(findCycles(graph([[], [2], [3], [1]]))).toEqual([[1, 2, 3]]);
  });
});
