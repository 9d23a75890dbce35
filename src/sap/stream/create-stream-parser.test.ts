import { describe, expect, it } from "vitest";
import { compile, parseTypeExpression } from "../../language/index.js";
import { parseValue } from "../parse-value.js";
import { SapParseError } from "../sap-parse-error.js";
import { workMeter } from "../work-meter.js";
import { createStreamParser } from "./create-stream-parser.js";

const { ir } = compile({
  "schema.baml": `
class Person {
  name string
  age int
}
`,
});
if (!ir) throw new Error("the test schema does not compile");
const person = parseTypeExpression("Person", ir).type!;

describe("createStreamParser", () => {
  it("reports changed only when the partial differs, and keeps the partial's identity otherwise", () => {
    const parser = createStreamParser(person, ir);
    expect(parser.push("Sure: ")).toEqual({ changed: false, value: null });
    const first = parser.push('{"name": "Ad');
    expect(first).toEqual({ changed: true, value: { name: "Ad", age: null } });
    const second = parser.push('a", "age": 3');
    expect(second).toEqual({ changed: true, value: { name: "Ada", age: null } });
    const third = parser.push("6");
    expect(third.changed).toBe(false);
    expect(third.value).toBe(second.value);
    expect(parser.push("}")).toEqual({ changed: true, value: { name: "Ada", age: 36 } });
    expect(parser.text).toBe('Sure: {"name": "Ada", "age": 36}');
  });

  it("finishes with exactly the final-mode parse of the whole text", () => {
    const parser = createStreamParser(person, ir);
    const text = "```json\n{'name': 'Bo', age: '41'}\n```";
    for (const char of text) parser.push(char);
    expect(parser.finish()).toEqual(parseValue(text, person, ir));
  });

  it("ends on what only the end of the answer decides, as final mode reads it", () => {
    const list = parseTypeExpression("int[]", ir).type!;
    const text = parseTypeExpression("string", ir).type!;
    const cases: [ReturnType<typeof parseTypeExpression>["type"], string][] = [
      [person, '```json\n{"name": "Ed", "age": 4'], // an open fence, object and number
      [person, '{"name": "Ed", "age": 4}\n``'], // backticks held back at the end
      [person, '```json\n{"name": "Ed", "age": 4}\n```'], // a closing run at the very end
      [person, "```json"], // a fence's info line cut by the end
      [person, '<think>{"name": "No", "age": 1}</think>{"name": "Ed", "age": 4'], // after reasoning
      [person, "name: Ed\nage: 4"], // label lines, the last still open
      [list, "[1, 2, 3"], // a trailing number
      [list, '{"a": 1} and {"b": 2'], // objects gathered into a list
      [text, '"an unclosed \ud83d'], // an unclosed quoted answer ending in half a surrogate pair
      [text, "```\nplain text"], // a fence's text cut off
    ];
    for (const [type, answer] of cases) {
      const expected = (() => {
        try {
          return parseValue(answer, type!, ir);
        } catch (error) {
          return (error as SapParseError).code;
        }
      })();
      for (const size of [1, 3, answer.length]) {
        const parser = createStreamParser(type!, ir);
        for (let at = 0; at < answer.length; at += size) parser.push(answer.slice(at, at + size));
        let got: unknown;
        try {
          got = parser.finish();
        } catch (error) {
          got = (error as SapParseError).code;
        }
        expect(got, `${JSON.stringify(answer)} in chunks of ${size}`).toEqual(expected);
      }
    }
  });

  it("finishes with the final parse's error when the answer does not fit", () => {
    const parser = createStreamParser(person, ir);
    parser.push('{"name": "Cy"');
    expect(() => parser.finish()).toThrow(SapParseError);
  });

  it("refuses chunks after finish", () => {
    const parser = createStreamParser(person, ir);
    parser.push('{"name": "D", "age": 1}');
    parser.finish();
    expect(() => parser.push("x")).toThrow(/after finish/);
  });

  it("never hands out half of a surrogate pair", () => {
    const parser = createStreamParser(parseTypeExpression("string", ir).type!, ir);
    expect(parser.push("ok \ud83d").value).toBe("ok ");
    expect(parser.push("\ude00").value).toBe("ok 😀");
  });

  it("builds no partial while chunks are only appended, and reads the latest one when asked", () => {
    const parser = createStreamParser(parseTypeExpression("Person[]", ir).type!, ir);
    const text = `[${'{"name": "Ada", "age": 36}, '.repeat(50)}{"name": "Bo"`;
    for (let at = 0; at < text.length; at += 16) parser.append(text.slice(at, at + 16));
    const read = parser.read();
    expect(read.changed).toBe(true);
    expect(read.value).toEqual([
      ...Array.from({ length: 50 }, () => ({ name: "Ada", age: 36 })),
      { name: "Bo", age: null },
    ]);
    // Cached until the next chunk: the same value, unchanged.
    const again = parser.read();
    expect(again).toEqual({ changed: false, value: read.value });
    expect(again.value).toBe(read.value);
    // A chunk that changes nothing shown keeps the partial too.
    parser.append(', "ag');
    expect(parser.read().value).toBe(read.value);
    parser.append('e": 2}]');
    const last = parser.read();
    expect(last.changed).toBe(true);
    expect((last.value as unknown[]).at(-1)).toEqual({ name: "Bo", age: 2 });
    // The partial read before is never mutated by later chunks.
    expect((read.value as unknown[]).at(-1)).toEqual({ name: "Bo", age: null });
    expect(parser.finish().value).toEqual(last.value);
  });

  it("hands out a list read whole once, and never changes it after", () => {
    const parser = createStreamParser(parseTypeExpression("int[][]", ir).type!, ir);
    for (const chunk of ["[[1, 2", ", 3], [4", ", 5]"]) parser.append(chunk);
    const first = parser.read().value as number[][];
    expect(first).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    for (const chunk of [", [6", "]]"]) parser.push(chunk);
    const last = parser.read().value as number[][];
    expect(last).toEqual([[1, 2, 3], [4, 5], [6]]);
    // The closed lists keep their identity, and the partial read before is as it was.
    expect(last[0]).toBe(first[0]);
    expect(last[1]).toBe(first[1]);
    expect(first).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it("reads what push reads, whatever the reads skipped", () => {
    const type = parseTypeExpression("Person[]", ir).type!;
    const text = 'Here: ```json\n[{\'name\': \'Cy\', age: 7}, {name: "Di", "age": "8"}, {"name": "E';
    const pushed = createStreamParser(type, ir);
    const appended = createStreamParser(type, ir);
    for (let at = 0; at < text.length; at += 3) {
      const chunk = text.slice(at, at + 3);
      const expected = pushed.push(chunk).value;
      appended.append(chunk);
      // Read only every seventh chunk: the partial then is the one a push after every chunk shows.
      if ((at / 3) % 7 === 6) expect(appended.read().value).toEqual(expected);
    }
    expect(appended.read().value).toEqual(pushed.read().value);
  });

  it("does the work of one partial, not one per chunk, when read once at the end", () => {
    const type = parseTypeExpression("Person[]", ir).type!;
    const text = `[${'{"name": "Ada Lovelace", "age": 36}, '.repeat(1000)}]`;
    const steps = (each: (parser: ReturnType<typeof createStreamParser>, chunk: string) => void) => {
      const parser = createStreamParser(type, ir);
      const before = workMeter.steps;
      for (let at = 0; at < text.length; at += 16) each(parser, text.slice(at, at + 16));
      parser.read();
      return workMeter.steps - before;
    };
    const pushed = steps((parser, chunk) => parser.push(chunk));
    const appended = steps((parser, chunk) => parser.append(chunk));
    // Each item is coerced once either way; a push per chunk also re-reads the item being written.
    expect(appended).toBeLessThan(pushed / 2);
  });
});

describe("append and read", () => {
  const people = parseTypeExpression("Person[]", ir).type!;
  const fenced = (items: number) =>
    `Here they are:\n\`\`\`json\n[${Array.from({ length: items }, (_, index) => `{"name": "P${index}", "age": ${index}}`).join(", ")}]\n\`\`\`\nDone.`;
  const stepsOf = (run: () => void): number => {
    const before = workMeter.steps;
    run();
    return workMeter.steps - before;
  };

  it("does no parsing work until read, then catches up on everything appended", () => {
    for (const [typeText, text] of [
      ["Person[]", fenced(50)],
      ["string", "Plain text, `ticks`, and a \\u00e9 that reads as text only at the end."],
      ["Person", "{name: 'Ada', age: 36"],
    ] as const) {
      const parser = createStreamParser(parseTypeExpression(typeText, ir).type!, ir);
      const appending = stepsOf(() => {
        for (let at = 0; at < text.length; at += 4) parser.append(text.slice(at, at + 4));
      });
      expect(appending).toBe(0);
      let read: unknown;
      expect(stepsOf(() => (read = parser.read().value))).toBeGreaterThan(0);
      expect(read).toEqual(
        parseValue(text, parseTypeExpression(typeText, ir).type!, ir, { partial: true }).value,
      );
    }
  });

  it("reads a fence that opened and closed since the last read as JSON.parse does, coercing nothing", () => {
    const count = (items: number) => {
      const text = fenced(items);
      const parser = createStreamParser(people, ir);
      return stepsOf(() => {
        for (let at = 0; at < text.length; at += 16) parser.append(text.slice(at, at + 16));
        expect(parser.read().value).toEqual(parseValue(text, people, ir).value);
      });
    };
    // The prose around the fence is scanned; the fence itself costs no parser step and no coercion, so
    // the count does not grow with the list.
    expect(count(2000)).toBe(count(10));
    // Read while the fence is open, the same list is read by the fixing parser and coerced item by item.
    const text = fenced(2000);
    const parser = createStreamParser(people, ir);
    const open = text.indexOf("[") + 1;
    parser.append(text.slice(0, open));
    parser.read();
    const pieceByPiece = stepsOf(() => {
      parser.append(text.slice(open));
      parser.read();
    });
    expect(pieceByPiece).toBeGreaterThan(2000);
  });

  it("announces a key written again, whose later value starts over, with ReadingSwitch", () => {
    const parser = createStreamParser(person, ir);
    expect(parser.push('{"name": "Bob", "age": 3').flags).toBeUndefined();
    const again = parser.push(', "name": "A');
    expect(again.value).toEqual({ name: "A", age: 3 });
    expect(again.flags?.map((flag) => flag.kind)).toEqual(["ReadingSwitch"]);
    // Only the read that saw the key again is announced; the value then grows as usual.
    const grows = parser.push('da"}');
    expect(grows.value).toEqual({ name: "Ada", age: 3 });
    expect(grows.flags).toBeUndefined();
    expect(parser.finish().value).toEqual({ name: "Ada", age: 3 });
  });

  it("announces a map key written again the same way", () => {
    const map = parseTypeExpression("map<string, string>", ir).type!;
    const parser = createStreamParser(map, ir);
    parser.push('{"a": "long text", "b": "x"');
    const again = parser.push(', "a": "s');
    expect(again.value).toEqual({ a: "s", b: "x" });
    expect(again.flags?.map((flag) => flag.kind)).toEqual(["ReadingSwitch"]);
    expect(parser.push('hort"}').flags).toBeUndefined();
  });

  /** The pushes (of `size` characters) whose partial carries `ReadingSwitch`, with their values. */
  const switches = (typeText: string, text: string, size: number, schema = ir) => {
    const parser = createStreamParser(parseTypeExpression(typeText, schema).type!, schema);
    const found: unknown[] = [];
    for (let at = 0; at < text.length; at += size) {
      const pushed = parser.push(text.slice(at, at + size));
      if (pushed.flags?.some((flag) => flag.kind === "ReadingSwitch")) found.push(pushed.value);
    }
    return found;
  };

  it("announces a label written again once, not at every read of its growing line", () => {
    const { ir: qaIr } = compile({ "schema.baml": "class QA {\n  reasoning string\n  answer int\n}" });
    const line = Array.from({ length: 300 }, (_, at) => `word${at}`).join(" ");
    const found = switches("QA", `Reasoning: first\nReasoning: ${line}`, 16, qaIr!);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ reasoning: expect.not.stringContaining("first") });
  });

  it("announces nothing after a reasoning block closes while the answer after it only grows", () => {
    const text = '<think>the name is Ada, the age 36</think>\n{"name": "Ada", "age": 36}';
    expect(switches("Person", text, 8)).toEqual([]);
    // A text answer showed the reasoning's text while the block was open: the answer after it replaces
    // it, once.
    const shown = switches("string", "<think>hmm, let me see</think>\nThe answer is a long sentence.", 8);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatch(/^\s*The answe/);
  });

  it("ends an inline fence's line the same whether its content came in one piece or in chunks", () => {
    const text = "Run ```bash npm te\nst``` to check the build.";
    const string = parseTypeExpression("string", ir).type!;
    const whole = parseValue(text, string, ir).value;
    for (let size = 1; size <= 12; size++) {
      const parser = createStreamParser(string, ir);
      for (let at = 0; at < text.length; at += size) parser.push(text.slice(at, at + size));
      expect(parser.finish().value, `chunks of ${size}`).toEqual(whole);
    }
  });

  it("announces no switch between readings when the value shown only grows", () => {
    const { ir: planIr } = compile({ "schema.baml": "class Plan {\n  plan string[]\n  note string?\n}" });
    const text = "plan:\n  - Step 1: draft it.\n  - Step 2: review it.\n";
    const parser = createStreamParser(parseTypeExpression("Plan", planIr!).type!, planIr!);
    let previous: unknown = null;
    for (const char of text) {
      const pushed = parser.push(char);
      expect(pushed.flags, `after ${JSON.stringify(parser.text)}`).toBeUndefined();
      previous = pushed.value;
    }
    expect(previous).toEqual({ plan: ["Step 1: draft it.", "Step 2: review it."], note: null });
  });
});

describe("nesting deeper than final mode reads", () => {
  const { ir: jsonIr } = compile({
    "schema.baml":
      "type JsonValue = string | int | float | bool | null | JsonValue[] | map<string, JsonValue>",
  });
  if (!jsonIr) throw new Error("the test schema does not compile");
  const jsonValue = parseTypeExpression("JsonValue", jsonIr).type!;
  // 450 objects deep: more coercion levels than final mode reads, so it abandons the container and
  // reads the answer as text.
  const text = `{"a": [1, ${'{"a": '.repeat(450)}2${"}".repeat(450)}]}`;

  it("abandons the reading in a stream as final mode does, read after every chunk or once", () => {
    const final = parseValue(text, jsonValue, jsonIr);
    expect(final.value).toBe(text);
    const pushed = createStreamParser(jsonValue, jsonIr);
    let last: unknown;
    for (let at = 0; at < text.length; at += 16) last = pushed.push(text.slice(at, at + 16)).value;
    expect(last).toBe(text);
    const once = createStreamParser(jsonValue, jsonIr);
    once.append(text);
    expect(once.read().value).toBe(text);
  });
});
