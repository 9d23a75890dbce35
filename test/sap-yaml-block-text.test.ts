/**
 * YAML block scalars (`|`, `>`, with chomping) read as the `yaml` package reads them (the test oracle of
 * issue #38): every block of up to four lines made of plain, more-indented and empty lines, under each
 * header, gives the text `yaml.parse` gives. Folding keeps the break before a more-indented line even
 * across empty lines (`a`, ``, `  b` is `a\n\n  b`).
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { blockScalarHeader, blockScalarText } from "../src/sap/lenient/read-yaml-block.js";

const LINES = ["a", "b c", "", "  x", "   y"];

function* blocks(length: number): Generator<string[]> {
  const count = LINES.length ** length;
  for (let code = 0; code < count; code++) {
    const lines: string[] = [];
    for (let at = 0, rest = code; at < length; at++, rest = Math.floor(rest / LINES.length))
      lines.push(LINES[rest % LINES.length]!);
    // (A block whose first line is more indented sets its indentation there: another shape.)
    const first = lines.find((line) => line !== "");
    if (first !== undefined && !first.startsWith(" ")) yield lines;
  }
}

describe("block scalars read as yaml.parse reads them", () => {
  for (const header of [">", ">-", ">+", "|", "|-", "|+"]) {
    it(`under ${header}`, () => {
      for (let length = 1; length <= 4; length++) {
        for (const lines of blocks(length)) {
          const body = lines.map((line) => (line === "" ? "" : `  ${line}`));
          const expected = parse(`key: ${header}\n${body.join("\n")}\nnext: 1\n`).key;
          const text = blockScalarText(body, 0, blockScalarHeader(header)!);
          expect({ lines, text }).toEqual({ lines, text: expected });
        }
      }
    });
  }
});
