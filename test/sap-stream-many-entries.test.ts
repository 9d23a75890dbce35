/**
 * A partial after every chunk of an answer with many entries costs what changed plus the copies of the
 * containers on the way (issue 29): each finished entry is coerced once and kept, and whether a partial
 * changed is told without walking every entry. Counted in `workMeter` steps (coercions, entries compared
 * between partials), never timed: the copies themselves, which grow with the square of the entries
 * whatever the parser does, are not steps. Twice the entries must take about twice the steps; coercing
 * or comparing every finished entry again on each read would take four times as many.
 */
import { describe, expect, it } from "vitest";
import { compile, parseTypeExpression } from "../src/language/index.js";
import { createStreamParser } from "../src/sap/index.js";
import { workMeter } from "../src/sap/work-meter.js";

const { ir } = compile({
  "schema.baml": `
class Item {
  name string
  qty int
}
class Counts {
  label string
  counts map<string, int>
}
`,
});

/** The `workMeter` steps of streaming `text` as `typeText` in 16-character chunks, reading after each. */
function streamSteps(typeText: string, text: string): { steps: number; partials: number } {
  const type = parseTypeExpression(typeText, ir!).type!;
  const parser = createStreamParser(type, ir!);
  let partials = 0;
  const before = workMeter.steps;
  for (let at = 0; at < text.length; at += 16) {
    if (parser.push(text.slice(at, at + 16)).changed) partials++;
  }
  return { steps: workMeter.steps - before, partials };
}

function entries(count: number, entry: (index: number) => string): string {
  return Array.from({ length: count }, (_, index) => entry(index)).join(", ");
}

const cases: [string, string, (count: number) => string, number][] = [
  ["a map of ints", "map<string, int>", (n) => `{${entries(n, (i) => `"key-${i}": ${i}`)}}`, 500],
  [
    "a map of strings",
    "map<string, string>",
    (n) => `{${entries(n, (i) => `"key-${i}": "value ${i}"`)}}`,
    500,
  ],
  [
    "a map of small objects",
    "map<string, Item>",
    (n) => `{${entries(n, (i) => `"key-${i}": {"name": "n${i}", "qty": ${i}}`)}}`,
    500,
  ],
  [
    "a map in a field",
    "Counts",
    (n) => `{"label": "x", "counts": {${entries(n, (i) => `"key-${i}": ${i}`)}}}`,
    500,
  ],
  ["a list of ints", "int[]", (n) => `[${entries(n, (i) => String(i))}]`, 5_000],
  ["a list of strings", "string[]", (n) => `[${entries(n, (i) => `"item ${i}"`)}]`, 5_000],
  [
    "a list of small objects",
    "Item[]",
    (n) => `[${entries(n, (i) => `{"name": "item ${i}", "qty": ${i}}`)}]`,
    2_000,
  ],
];

describe("a partial after every chunk costs what changed, however many entries came before", () => {
  for (const [name, typeText, make, size] of cases) {
    it(`${name} (${typeText})`, () => {
      const small = streamSteps(typeText, make(size));
      const large = streamSteps(typeText, make(2 * size));
      // The stream showed its entries as they came (not one partial at the end).
      expect(small.partials).toBeGreaterThan(size / 4);
      // Linear: twice the steps for twice the entries; re-reading finished entries would be 4×.
      expect(large.steps / small.steps, `${small.steps} → ${large.steps} steps`).toBeLessThan(2.5);
    });
  }
});
