import { describe, expect, it } from "vitest";
import { compile, parseTypeExpression } from "../../language/index.js";
import { parseValue } from "../parse-value.js";
import { SapParseError } from "../sap-parse-error.js";
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
});
