import { describe, expect, it } from "vitest";
import { parse, SchemaParseError } from "./index.js";
import { linearPattern } from "./linear-pattern.js";

function issueOf(schema: object, text: string): { code: string; message: string } | undefined {
  try {
    parse(schema, text);
    return undefined;
  } catch (error) {
    if (!SchemaParseError.isInstance(error)) throw error;
    const [issue] = error.issues;
    return issue ? { code: issue.code ?? "", message: issue.message } : undefined;
  }
}

describe("pattern, matched in linear time", () => {
  it("checks a pattern that backtracking RegExp takes exponential time on", () => {
    // `RegExp` needs about 2^40 steps to reject this; the linear engine one pass.
    const schema = { type: "object", properties: { id: { type: "string", pattern: "^(a+)+$" } } };
    expect(issueOf(schema, JSON.stringify({ id: `${"a".repeat(40)}!` }))).toEqual({
      code: "pattern",
      message: "String does not match pattern (schema #/properties/id/pattern)",
    });
    expect(parse(schema, '{"id": "aaa"}').value).toEqual({ id: "aaa" });
  });

  it("means what ECMA-262 means: \\d and \\w are ASCII, . stops at any line terminator", () => {
    const cases: [string, string, boolean][] = [
      ["^\\d+$", "123", true],
      ["^\\d+$", "١٢٣", false],
      ["^\\w+$", "héllo", false],
      ["^[\\w-]+$", "a-b_c", true],
      ["^a.b$", "a\rb", false],
      ["^a.b$", "a b", true],
      ["^[[]+$", "[[", true],
      ["^(?:ab)+$", "abab", true],
    ];
    for (const [pattern, text, matches] of cases) {
      expect(linearPattern(pattern)?.test(text), `${pattern} on ${JSON.stringify(text)}`).toBe(matches);
      expect(new RegExp(pattern, "u").test(text)).toBe(matches);
    }
  });

  it("leaves to the validator what the dialects read differently, and still checks it", () => {
    for (const pattern of ["\\bword", "^\\s+$", "(?=a)a", "(a)\\1", "\\p{L}", "[]", "\\u0041"])
      expect(linearPattern(pattern), pattern).toBeUndefined();
    const schema = { type: "string", pattern: "^\\s*x$" };
    expect(parse(schema, '"  x"').value).toBe("  x");
    expect(issueOf(schema, '"y"')?.code).toBe("pattern");
  });

  it("keeps a format beside a linear pattern", () => {
    const schema = { type: "string", format: "email", pattern: "^[a-z]+@" };
    expect(parse(schema, '"bo@example.com"').value).toBe("bo@example.com");
    expect(issueOf(schema, '"Bo@example.com"')?.code).toBe("pattern");
    expect(issueOf(schema, '"bo@"')?.code).toBe("format");
  });
});
