/**
 * A stream of an answer written in sections (issue #38) costs work linear in its length: a section that
 * grows line after line is read from what arrived since the last read, not from its whole content again
 * after each chunk. Each answer is streamed in 16-character chunks with a read per chunk, its open
 * section grown to n and to 2n characters; the work (`workMeter` steps: characters read by the sections
 * reading and the streaming readers, coercions) of the second must be about twice the first's, not four
 * times. Counted work, never time (timing is `bench/formats.ts`).
 */
import { describe, expect, it } from "vitest";
import { compile, parseTypeExpression } from "../src/language/index.js";
import { createStreamParser } from "../src/sap/index.js";
import { workMeter } from "../src/sap/work-meter.js";

const { ir } = compile({
  "schema.baml": `
class QA {
  reasoning string
  answer int
}
class Plan {
  steps string[]
  answer int
}
class Item {
  name string
  tags string[]
}
class Digest {
  title string
  items Item[]
}
class Notes {
  steps string[]
  reasoning string
}
`,
});

/** The work of streaming `text` as `typeText` in 16-character chunks, reading after each. */
function steps(typeText: string, text: string): number {
  const type = parseTypeExpression(typeText, ir!).type!;
  const parser = createStreamParser(type, ir!);
  const before = workMeter.steps;
  for (let at = 0; at < text.length; at += 16) parser.push(text.slice(at, at + 16));
  return workMeter.steps - before;
}

/** Lines of prose (with a blank line now and then) adding up to about `size` characters. */
function prose(size: number, line: (at: number) => string): string {
  const lines: string[] = [];
  let length = 0;
  for (let at = 0; length < size; at++) {
    const next = at % 7 === 6 ? "" : line(at);
    lines.push(next);
    length += next.length + 1;
  }
  return lines.join("\n");
}

const sentence = (at: number) => `The total after part ${at} is ${at * 17}, carried on to the next line.`;

/** Lines made by `line` (no blank ones) adding up to about `size` characters. */
function lines(size: number, line: (at: number) => string): string {
  const made: string[] = [];
  let length = 0;
  for (let at = 0; length < size; at++) {
    made.push(line(at));
    length += made[at]!.length + 1;
  }
  return made.join("\n");
}

/** One line of words, about `size` characters long. */
function words(size: number): string {
  return lines(size, (at) => `word${at}`).replaceAll("\n", " ");
}

const step = (at: number) => `- check part ${at} of the plan against the notes`;

const shapes: [string, string, (size: number) => string][] = [
  ["a DSPy string section", "QA", (size) => `[[ ## reasoning ## ]]\n${prose(size, sentence)}`],
  ["a markdown heading's string section", "QA", (size) => `## Reasoning\n${prose(size, sentence)}`],
  ["a tag's string section", "QA", (size) => `<reasoning>\n${prose(size, sentence)}`],
  ["a label's text over several paragraphs", "QA", (size) => `Reasoning: first.\n${prose(size, sentence)}`],
  [
    "a YAML literal block scalar",
    "QA",
    (size) => `reasoning: |\n${prose(size, sentence).replace(/^(?=.)/gm, "  ")}`,
  ],
  [
    "a YAML folded block scalar",
    "QA",
    (size) => `reasoning: >-\n${prose(size, sentence).replace(/^(?=.)/gm, "  ")}`,
  ],
  ["a DSPy section of bullets", "Plan", (size) => `[[ ## steps ## ]]\n${lines(size, step)}`],
  ["a markdown heading's bullets", "Plan", (size) => `## Steps\n${lines(size, step)}`],
  ["a YAML sequence under an empty key", "Plan", (size) => `steps:\n${lines(size, step)}`],
  [
    "YAML items under an empty key",
    "Digest",
    (size) => `title: Weekly\nitems:\n${lines(size, (at) => `  - name: item ${at}\n    tags: [x, y${at}]`)}`,
  ],
  ["a list's tag holding bullets", "Plan", (size) => `<steps>\n${lines(size, step)}`],
  [
    "a fenced block in a DSPy section",
    "QA",
    (size) => `[[ ## reasoning ## ]]\n\`\`\`text\n${prose(size, sentence)}`,
  ],
  [
    "a JSON list in a DSPy section",
    "Plan",
    (size) => `[[ ## steps ## ]]\n[\n${lines(size, (at) => `  "check part ${at} of the plan",`)}`,
  ],
  ["one long line in a DSPy section", "QA", (size) => `[[ ## reasoning ## ]]\n${words(size)}`],
  [
    "one long line after a line in a DSPy section",
    "QA",
    (size) => `[[ ## reasoning ## ]]\nFirst.\n${words(size)}`,
  ],
  ["one long line under a markdown heading", "QA", (size) => `## Reasoning\n${words(size)}`],
  [
    "one long indented line after a paragraph under a heading",
    "QA",
    (size) => `## Reasoning\nFirst.\n\n  ${words(size)}`,
  ],
  ["one long line in a tag, on the tag's line", "QA", (size) => `<reasoning>${words(size)}`],
  ["one long label line", "QA", (size) => `Reasoning: ${words(size)}`],
  ["one long bold label line", "QA", (size) => `**Reasoning:** ${words(size)}`],
  ["one long label line after another label", "QA", (size) => `Answer: 4\nReasoning: ${words(size)}`],
  ["one long label line written again", "QA", (size) => `Reasoning: a\nReasoning: ${words(size)}`],
  ["one long line in a tag", "QA", (size) => `<reasoning>\n${words(size)}`],
  [
    "one long line in a tag, with entities",
    "QA",
    (size) => `<reasoning>\n${words(size).replaceAll("word1", "a &amp; b &lt;c&gt;")}`,
  ],
  [
    "a text section after a long closed list",
    "Notes",
    // (The list, closed, stays as long as the text grows: its value is settled, never walked again.)
    (size) => `[[ ## steps ## ]]\n${lines(size, step)}\n\n[[ ## reasoning ## ]]\n${prose(size, sentence)}`,
  ],
];

describe("streamed sections cost work linear in their length", () => {
  for (const [shape, typeText, make] of shapes) {
    it(`${shape} as ${typeText}`, () => {
      const small = steps(typeText, make(5_000));
      const large = steps(typeText, make(10_000));
      // Linear work doubles with the text; reading the whole section again per chunk quadruples it.
      expect(large / small).toBeLessThan(2.5);
    });
  }
});
