import { describe, expect, it } from "vitest";
import { IrIndex } from "../../ir/index.js";
import { compile, parseTypeExpression } from "../../language/index.js";
import { workMeter } from "../work-meter.js";
import { MarkdownTable } from "./read-markdown-table.js";
import { type SectionNames, sectionNamesOf } from "./section-names.js";

const { ir } = compile({ "row.baml": 'class Row {\n  title string\n  year int @alias("published")\n}' });
if (!ir) throw new Error("the test schema does not compile");
const rowNames = sectionNamesOf(parseTypeExpression("Row[]", ir).type!, new IrIndex(ir))?.items
  ?.inner as SectionNames;

/** The table's rows as plain values (each cell as written), after pushing `chunks` and ending. */
function rows(chunks: string[]): unknown {
  const table = new MarkdownTable(rowNames);
  for (const chunk of chunks) table.push(chunk);
  table.end();
  const node = table.node();
  if (node === undefined) return undefined;
  return node.items.map((item) =>
    item.kind === "object"
      ? Object.fromEntries(item.entries.map(([key, value]) => [key, "value" in value ? value.value : null]))
      : item.kind,
  );
}

/** Steps counted while streaming a table of `count` rows in 16-character chunks, reading after each. */
function streamSteps(count: number, lead = ""): number {
  const text = `${lead}| title | published |\n|---|---|\n${Array.from({ length: count }, (_, at) => `| Book ${at} | ${1900 + (at % 100)} |\n`).join("")}`;
  const table = new MarkdownTable(rowNames);
  const before = workMeter.steps;
  for (let at = 0; at < text.length; at += 16) {
    table.push(text.slice(at, at + 16));
    table.node();
  }
  table.end();
  return workMeter.steps - before;
}

describe("MarkdownTable", () => {
  it("keys each row by the header's declared names (an alias too), other columns as written", () => {
    expect(
      rows(["| # | Title | Published |\n|:-:|---|--:|\n| 1 | Dune | 1965 |\n| 2 | Emma |  |\n"]),
    ).toEqual([
      { "#": 1, title: "Dune", published: 1965 },
      { "#": 2, title: "Emma" },
    ]);
  });

  it("passes text before the header and ends at the first line that is not a row", () => {
    const text =
      "Here:\n\n| title | published |\n|---|---|\n| Dune | 1965 |\n\nand | this | is prose\n| Emma | 1815 |\n";
    expect(rows([text])).toEqual([{ title: "Dune", published: 1965 }]);
  });

  it("reads nothing from a header that names no declared field, or a header with no delimiter row", () => {
    expect(rows(["| book | year of it |\n|---|---|\n| Dune | 1965 |\n"])).toBeUndefined();
    expect(rows(["| title | published |\n| Dune | 1965 |\n"])).toBeUndefined();
  });

  it("reads the same rows however the text is cut", () => {
    const text = "| title | published |\n|---|---|\n| Either \\| Or | 1843 |\n| Dune | 1965 |";
    const whole = rows([text]);
    expect(whole).toEqual([
      { title: "Either | Or", published: 1843 },
      { title: "Dune", published: 1965 },
    ]);
    for (const size of [1, 3, 7]) {
      const chunks = Array.from({ length: Math.ceil(text.length / size) }, (_, at) =>
        text.slice(at * size, (at + 1) * size),
      );
      expect(rows(chunks)).toEqual(whole);
    }
  });

  it("streams in steps linear in the table's length, and a long lead-in costs no step", () => {
    const small = streamSteps(1_000);
    const large = streamSteps(2_000);
    expect(large / small).toBeGreaterThan(1.9);
    expect(large / small).toBeLessThan(2.1);
    expect(streamSteps(1_000, `${'{"not": "a table"}\n'.repeat(2_000)}`)).toBe(small);
  });
});
