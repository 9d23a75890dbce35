/**
 * Streaming stays linear: each shape of answer that used to cost super-linear time when streamed (a
 * comma list, a list of small nested objects under a recursive alias, fence openings repeated), and a
 * fence of `key: value` lines (read line by line as it arrives), is streamed in 16-character chunks at
 * two sizes, for several target kinds, and the work it takes (`workMeter` steps: coercions, characters
 * scanned by the streaming readers, characters escaped for messages) must grow with the text, not
 * faster. Counted work, never time (timing is `npm run bench`).
 */
import { describe, expect, it } from "vitest";
import { compile, parseTypeExpression } from "../src/language/index.js";
import { createStreamParser } from "../src/sap/index.js";
import { workMeter } from "../src/sap/work-meter.js";

const { ir } = compile({
  "schema.baml": `
type JsonValue = string | int | float | bool | null | JsonValue[] | map<string, JsonValue>
enum Mood {
  A
  B
}
class Counts {
  a int
}
class Note {
  body string
}
`,
});

/** Steps per character of streaming `text` as `typeText` in 16-character chunks. */
function stepsPerChar(typeText: string, text: string): number {
  const type = parseTypeExpression(typeText, ir!).type!;
  const parser = createStreamParser(type, ir!);
  const before = workMeter.steps;
  for (let at = 0; at < text.length; at += 16) parser.push(text.slice(at, at + 16));
  return (workMeter.steps - before) / text.length;
}

const shapes: [string, (size: number) => string, string[]][] = [
  [
    "a comma list",
    (size) => "a, ".repeat(size / 3),
    ["string[]", "Mood[]", "int[]", "JsonValue", "string", "Note"],
  ],
  [
    "a list of small nested objects",
    (size) => `[${'{"k": [1, {"a": "b"}], "z": null}, '.repeat(size / 34)}]`,
    ["JsonValue", "JsonValue[]", "map<string, JsonValue>[]", "string", "Counts[]"],
  ],
  [
    "key: value lines in a fence",
    (size) => `\`\`\`yaml\n${"body: some text\n".repeat(size / 16)}`,
    ["Note", "Counts", "string", "JsonValue", "Note[]"],
  ],
  [
    "fence openings repeated",
    (size) => "```json\n{".repeat(size / 9),
    ["JsonValue", "string", "string[]", "Counts"],
  ],
];

describe("streamed answers cost work linear in their length", () => {
  for (const [shape, make, types] of shapes) {
    for (const typeText of types) {
      it(`${shape} as ${typeText}`, () => {
        const small = stepsPerChar(typeText, make(4_000));
        const large = stepsPerChar(typeText, make(32_000));
        // Linear work is the same per character at 8× the size; quadratic work would be 8× as much.
        expect(large).toBeLessThan(small * 1.5 + 1);
      });
    }
  }
});
