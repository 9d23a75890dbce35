/**
 * A stream of one long line in a section (issue #38) does not read that line whole at every read
 * (docs/decisions/0051 for DSPy sections and headings, 0053 for label lines and tags): V8
 * copies a string grown by concatenation whole the first time any of its characters is read, so each
 * read that looked at the line being written cost its length, and the stream the square of it (linear in
 * `workMeter` steps, which count what the readers mean to read, not what a `trim` copies). Counted here:
 * the characters of long strings (over 1,000) handed to String and RegExp methods while the answer is
 * streamed in 16-character chunks with a read after each. Characters, never time.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compile, parseTypeExpression } from "../src/language/index.js";
import { createStreamParser } from "../src/sap/index.js";

const { ir } = compile({
  "schema.baml":
    "class QA {\n  reasoning string\n  answer int\n}\nclass Plan {\n  steps string[]\n  answer int\n}\n",
});
const LONG = 1000;
let looked = 0;
let counting = false;

const METHODS = [
  "trim",
  "trimStart",
  "trimEnd",
  "startsWith",
  "endsWith",
  "includes",
  "indexOf",
  "lastIndexOf",
  "slice",
  "substring",
  "charCodeAt",
  "toLowerCase",
  "split",
] as const;
const strings = String.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
const originals = new Map(METHODS.map((name) => [name, strings[name]!]));
const exec = RegExp.prototype.exec;

beforeEach(() => {
  for (const [name, original] of originals) {
    strings[name] = function (this: string, ...args: unknown[]) {
      if (counting && this.length > LONG) looked += this.length;
      return original.apply(this, args);
    };
  }
  // (`test`, `replace`, `search` and `match` with a regular expression call `exec`.)
  RegExp.prototype.exec = function (this: RegExp, text: string) {
    if (counting && typeof text === "string" && text.length > LONG) looked += text.length;
    return exec.call(this, text);
  };
});

afterEach(() => {
  for (const [name, original] of originals) strings[name] = original;
  RegExp.prototype.exec = exec;
});

/** Characters of long strings looked at while `text` streams in 16-character chunks, read after each. */
function charactersLookedAt(text: string, typeText = "QA"): number {
  const parser = createStreamParser(parseTypeExpression(typeText, ir!).type!, ir!);
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += 16) chunks.push(text.slice(at, at + 16));
  looked = 0;
  counting = true;
  try {
    for (const chunk of chunks) parser.push(chunk);
  } finally {
    counting = false;
  }
  return looked;
}

/** One line of words, about `size` characters long. */
function words(size: number): string {
  return Array.from({ length: Math.ceil(size / 8) }, (_, at) => `word${at}`).join(" ");
}

describe("a stream of one long line in a section looks at the line's new characters only", () => {
  const shapes: [string, (line: string) => string][] = [
    ["in a DSPy section", (line) => `[[ ## reasoning ## ]]\n${line}`],
    ["under a markdown heading", (line) => `## Reasoning\n${line}`],
    ["after a first line in a DSPy section", (line) => `[[ ## reasoning ## ]]\nFirst.\n${line}`],
    ["indented after a paragraph under a heading", (line) => `## Reasoning\nFirst.\n\n  ${line}`],
  ];
  for (const [name, shape] of shapes) {
    it(name, () => {
      // (Read whole at each read, a 20 kB line would be looked at about 25 million characters' worth.)
      const text = shape(words(20_000));
      expect(charactersLookedAt(text)).toBeLessThanOrEqual(2 * text.length);
      // And the partial still shows the line as it grows.
      const parser = createStreamParser(parseTypeExpression("QA", ir!).type!, ir!);
      parser.push(text.slice(0, 5_000));
      const shown = (parser.read().value as { reasoning: string }).reasoning;
      expect(text.slice(0, 5_000).trimEnd().endsWith(shown.slice(-50))).toBe(true);
    });
  }

  it("counts a line read whole at every read (the measure can fail)", () => {
    // A JSON list on one long line in a section is still given to its parser from the line at each read
    // (`JsonContent.value` slices what it has not seen yet out of the line).
    const list = words(20_000).replaceAll(" ", '", "');
    const text = `[[ ## steps ## ]]\n["${list}`;
    expect(charactersLookedAt(text, "Plan")).toBeGreaterThan(100 * text.length);
  });
});

describe("a stream of one long label or tag line looks at the line's new characters only", () => {
  const shapes: [string, (line: string) => string, string][] = [
    ["a label line", (line) => `Reasoning: ${line}`, ""],
    ["a bold label line", (line) => `**Reasoning:** ${line}`, ""],
    ["a label line after another label", (line) => `Answer: 4\nReasoning: ${line}`, ""],
    // (Chunks that end with a comma: a value's last comma is not its own, told from what was added.)
    ["a label line of words and commas", (line) => `Reasoning: ${line.replaceAll(" ", ", ")}`, ""],
    [
      "a DSPy section's line of words and commas",
      (line) => `[[ ## reasoning ## ]]\n${line.replaceAll(" ", ", ")}`,
      "",
    ],
    ["a label written again", (line) => `Reasoning: first\nReasoning: ${line}`, ""],
    ["an unindented line of a label's text", (line) => `Reasoning: first.\n${line}`, ""],
    ["a tag's line", (line) => `<reasoning>\n${line}`, ""],
    ["a line on a tag's own line", (line) => `<reasoning>${line}`, ""],
    ["the class's own tag's line", (line) => `<QA>${line}`, ""],
    ["a tag's line with entities", (line) => `<reasoning>\n${line}`, "a &amp; b &lt;c&gt; &#39;d&#x27; & e"],
  ];
  for (const [name, shape, entities] of shapes) {
    it(name, () => {
      const line = entities === "" ? words(20_000) : words(20_000).replaceAll("word1", entities);
      const text = shape(line);
      // (Read whole at each read, a 20 kB line would be looked at 50 to 150 million characters' worth.)
      expect(charactersLookedAt(text)).toBeLessThanOrEqual(2 * text.length);
    });
  }

  const ended: [string, (line: string) => string][] = [
    ["a label line, then the next label", (line) => `Reasoning: ${line}\nAnswer: 4`],
    [
      "a tag's line, then its closing tag and the next tag",
      (line) => `<reasoning>\n${line}\n</reasoning>\n<answer>4</answer>`,
    ],
    [
      "a line on a tag's own line, closed on it",
      (line) => `<reasoning>${line}</reasoning>\n<answer>4</answer>`,
    ],
  ];
  for (const [name, shape] of ended) {
    it(`${name}: the line is read whole a few times once it ends, not at every chunk`, () => {
      const small = charactersLookedAt(shape(words(10_000)));
      const large = charactersLookedAt(shape(words(20_000)));
      // (Each whole read of the line after it ends costs its length: twice the line, twice the work.)
      expect(large).toBeLessThanOrEqual(100 * 20_000);
      expect(large / small).toBeLessThan(3);
    });
  }

  it("shows a tag's line as it grows, its entities decoded and none being written", () => {
    const parser = createStreamParser(parseTypeExpression("QA", ir!).type!, ir!);
    const text = `<reasoning>\n${words(1_000)} fish &amp; chips &am`;
    for (let at = 0; at < text.length; at += 16) parser.push(text.slice(at, at + 16));
    const shown = (parser.read().value as { reasoning: string }).reasoning;
    expect(shown.endsWith("fish & chips")).toBe(true);
    parser.push("p; peas");
    expect((parser.read().value as { reasoning: string }).reasoning.endsWith("fish & chips & peas")).toBe(
      true,
    );
  });
});
