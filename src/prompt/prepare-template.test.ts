import { describe, expect, it } from "vitest";
import { prepareTemplate } from "./prepare-template.js";

describe("prepareTemplate", () => {
  it("dedents by the smallest indentation of non-blank lines and trims", () => {
    const raw = "\n    Hello\n      world\n\n    end\n  ";
    expect(prepareTemplate(raw).text).toBe("Hello\n  world\n\nend");
  });
  it("maps offsets back to the original line and column", () => {
    const raw = "\n    Hello\n      {{ x }}\n  ";
    const prepared = prepareTemplate(raw);
    const offset = prepared.text.indexOf("{{");
    expect(prepared.toOriginal(offset)).toEqual({ line: 2, column: 6 });
    expect(prepared.toOriginal(0)).toEqual({ line: 1, column: 4 });
  });
  it("empties whitespace-only lines, as BAML does", () => {
    expect(prepareTemplate("A {{a}}\n   \nB\n\t\nC   \n  D").text).toBe("A {{a}}\n\nB\n\nC   \n  D");
    expect(prepareTemplate("\n    A\n      \n    B\n  ").text).toBe("A\n\nB");
  });
  it("reads CRLF line endings as \\n, as BAML does (a .baml file saved on Windows)", () => {
    const prepared = prepareTemplate("\r\n    A\r\n\r\n      {{ x }}\r\n  ");
    expect(prepared.text).toBe("A\n\n  {{ x }}");
    expect(prepared.toOriginal(prepared.text.indexOf("{{"))).toEqual({ line: 3, column: 6 });
    // A carriage return inside a line is text.
    expect(prepareTemplate("a\rb\r\nc").text).toBe("a\rb\nc");
  });
  it("keeps a single-line prompt as is", () => {
    expect(prepareTemplate("Say hi to {{ name }}").text).toBe("Say hi to {{ name }}");
  });
});
