import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../diagnostics/index.js";
import type { Comment } from "./ast.js";
import { Scanner, type Token } from "./scanner.js";

function scan(text: string): { tokens: Token[]; diagnostics: Diagnostic[]; comments: Comment[] } {
  const diagnostics: Diagnostic[] = [];
  const comments: Comment[] = [];
  const scanner = new Scanner(text, "t.baml", diagnostics, comments);
  const tokens: Token[] = [];
  for (let token = scanner.next(); token.kind !== "eof"; token = scanner.next()) tokens.push(token);
  return { tokens, diagnostics, comments };
}

describe("Scanner", () => {
  it("scans identifiers, numbers, punctuation and arrows", () => {
    const { tokens } = scan("client<llm> F(x: int[]) -> map<string, float?> @@check -1.5 42");
    expect(tokens.map((token) => token.value)).toEqual([
      "client",
      "<",
      "llm",
      ">",
      "F",
      "(",
      "x",
      ":",
      "int",
      "[",
      "]",
      ")",
      "->",
      "map",
      "<",
      "string",
      ",",
      "float",
      "?",
      ">",
      "@@",
      "check",
      "-1.5",
      "42",
    ]);
  });

  it("decodes escapes in quoted strings", () => {
    expect(scan('"a\\"b\\n"').tokens[0]).toMatchObject({ kind: "string", value: 'a"b\n' });
  });

  it("reads raw strings with one to five hashes, keeping the content exactly", () => {
    const { tokens } = scan('#"one"# ##"has "# inside"## #####"five"#####');
    expect(tokens.map((token) => [token.kind, token.value, token.hashes])).toEqual([
      ["raw-string", "one", 1],
      ["raw-string", 'has "# inside', 2],
      ["raw-string", "five", 5],
    ]);
    expect(tokens[1]?.contentStart).toBe(11);
  });

  it("reports unterminated strings and raw strings", () => {
    expect(scan('"open\nnext').diagnostics.map((item) => item.code)).toEqual(["E0002"]);
    expect(scan('#"never closed').diagnostics.map((item) => [item.code, item.message])).toEqual([
      ["E0003", 'This raw string is never closed; expected `"#`.'],
    ]);
  });

  it("keeps line, doc and block comments, and attaches docs to the next token", () => {
    const { tokens, comments } = scan("// note\n/// doc one\n/// doc two\nclass {// block\n //} A");
    expect(comments.map((comment) => comment.kind)).toEqual(["line", "doc", "doc", "block"]);
    expect(tokens[0]).toMatchObject({ value: "class", docs: "doc one\ndoc two", newlineBefore: true });
    expect(tokens[1]).toMatchObject({ value: "A", newlineBefore: true });
    expect(tokens[1]?.docs).toBeUndefined();
  });

  it("reads unquoted values up to a delimiter, a line end or a spaced comment", () => {
    const diagnostics: Diagnostic[] = [];
    const scanner = new Scanner("http://host:80/v1 // comment\n", "t.baml", diagnostics, []);
    expect(scanner.scanUnquoted(0)).toEqual({ value: "http://host:80/v1", end: 17 });
    const list = new Scanner("gpt-4o-mini, other]", "t.baml", diagnostics, []);
    expect(list.scanUnquoted(0).value).toBe("gpt-4o-mini");
  });

  it("reads {{ expressions }} on request and reports unclosed ones", () => {
    const diagnostics: Diagnostic[] = [];
    const scanner = new Scanner("{{ this > 0 }} rest", "t.baml", diagnostics, []);
    expect(scanner.scanExpression(0)).toEqual({ inner: " this > 0 ", end: 14 });
    const open = new Scanner("{{ this\nnext", "t.baml", diagnostics, []);
    expect(open.scanExpression(0).end).toBe(7);
    expect(diagnostics.map((item) => item.code)).toEqual(["E0007"]);
  });
});
