import { describe, expect, it } from "vitest";
import { IrIndex } from "../../ir/index.js";
import { compile, parseTypeExpression } from "../../language/index.js";
import { nodeToJsonText } from "./jsonish-node.js";
import { readSections, Sections } from "./read-sections.js";
import { type SectionNames, sectionNamesOf } from "./section-names.js";

const { ir } = compile({ "qa.baml": "class QA {\n  reasoning string\n  answer int\n}" });
if (!ir) throw new Error("the test schema does not compile");
const names = sectionNamesOf(parseTypeExpression("QA", ir).type!, new IrIndex(ir)) as SectionNames;

/** `count` lines of a JavaScript-style object whose keys are the class's own field names. */
function objectLines(count: number, indent: string): string {
  const lines: string[] = [];
  for (let line = 0; line < count; line++) lines.push(`${indent}  answer: ${line},`);
  return `${indent}{\n${lines.join("\n")}\n${indent}}`;
}

/** The lines `Sections` read (its `changes` count one per line read, plus one per push). */
function linesRead(chunks: string[]): { changes: number; value: string | undefined } {
  const sections = new Sections(names);
  for (const chunk of chunks) sections.push(chunk);
  sections.end();
  const node = sections.node();
  return { changes: sections.changes, value: node && nodeToJsonText(node) };
}

describe("Sections", () => {
  const after = "\nReasoning: counted.\nAnswer: 4\n";

  it("passes the lines of a long fence or object by in a few steps, not one per line", () => {
    for (const before of [`\`\`\`js\n${objectLines(10_000, "")}\n\`\`\``, objectLines(10_000, "")]) {
      const whole = linesRead([`Here it is:\n${before}${after}`]);
      expect(whole.value).toBe('{"Reasoning":"counted.","Answer":4}');
      expect(whole.changes).toBeLessThan(20);
    }
  });

  it("passes them by in streams too, three or so steps per chunk", () => {
    const text = `Here it is:\n\`\`\`js\n${objectLines(2_000, "")}\n\`\`\`${after}`;
    const chunks = text.match(/[\s\S]{1,1000}/g)!;
    const streamed = linesRead(chunks);
    expect(streamed.value).toBe('{"Reasoning":"counted.","Answer":4}');
    expect(streamed.changes).toBeLessThan(4 * chunks.length);
  });

  it("ends an object only at a closer no deeper than its opening line", () => {
    const text = `  {\n    answer: 1,\n      }\n  answer: 2 },\n ]\nAnswer: 3\nReasoning: after it${after}`;
    expect(nodeToJsonText(readSections(text, names)!)).toBe(
      '{"Answer":3,"Reasoning":"after it","Reasoning":"counted.","Answer":4}',
    );
  });

  it("ends a fence only at a line starting with a fence mark after blanks", () => {
    const text = "```\nAnswer: 1 ``` not closing\n\t~~~\nAnswer: 2\n";
    expect(nodeToJsonText(readSections(text, names)!)).toBe('{"Answer":2}');
  });
});
