import { describe, expect, it } from "vitest";
import { FixingParser, fixingParse, MAX_NESTING } from "./fixing-parser.js";
import { type JsonishNode, nodeToJsonText, writtenText } from "./jsonish-node.js";

function read(text: string): string[] {
  return fixingParse(text).map((root) => nodeToJsonText(root.node));
}

describe("fixingParse", () => {
  it("finds every top-level container in prose, with spans", () => {
    const text = 'see [1] and {"a": 2} end';
    const roots = fixingParse(text);
    expect(roots.map((root) => text.slice(root.start, root.end))).toEqual(["[1]", '{"a": 2}']);
  });

  it.each([
    ["{a: 1}", '{"a":1}', "unquoted key"],
    ["{'a': 'b'}", '{"a":"b"}', "single quotes"],
    ['{"a": 1,}', '{"a":1}', "trailing comma"],
    ['{"a": 1 "b": 2}', '{"a":1,"b":2}', "missing comma"],
    ['{"a" 1}', '{"a":1}', "missing colon"],
    ['{"a": True}', '{"a":true}', "python literal"],
    ['{"a": hello there}', '{"a":"hello there"}', "unquoted value"],
    ['{"a": 1 // note\n}', '{"a":1}', "comment"],
    ['{"a": "x"]', '{"a":"x"}', "stray bracket"],
    ['[{"a": 1]', '[{"a":1}]', "mismatched bracket"],
    ['{"a": "Kim "MJ" Lee"}', '{"a":"Kim \\"MJ\\" Lee"}', "unescaped quote"],
    ['{"a": "x', '{"a":"x"}', "unclosed string"],
    ['{"a": """say "hi" """}', '{"a":"say \\"hi\\" "}', "triple quotes"],
  ])("repairs %s → %s (%s)", (text, expected, repair) => {
    const [root] = fixingParse(text);
    expect(nodeToJsonText(root!.node)).toBe(expected);
    expect(root!.repairs).toContain(repair);
  });

  it("decodes \\u escapes, also surrogate pairs, in repaired JSON", () => {
    expect(read("{a: 'caf\\u00e9 \\ud83d\\ude00'}")).toEqual(['{"a":"café 😀"}']);
  });

  it("keeps LaTeX-like \\b and \\f before a letter", () => {
    expect(read('{"a": "\\beta \\frac \\b"}')).toEqual([JSON.stringify({ a: "\\beta \\frac \b" })]);
  });

  it("marks the cut: strings, numbers and containers at the end of input are incomplete", () => {
    const [root] = fixingParse('{"a": [1, 2');
    expect(root!.node.complete).toBe(false);
    const list = root!.node.kind === "object" ? root!.node.entries[0]![1] : undefined;
    expect(list?.kind === "array" && list.items.map((item) => item.complete)).toEqual([true, false]);
  });

  it("drops a key that never got a value", () => {
    expect(read('{"a": 1, "b":')).toEqual(['{"a":1}']);
  });

  it("keeps an unquoted value with commas when no new member follows", () => {
    expect(read('{"name": Smith, John, "age": 3}')).toEqual(['{"name":"Smith, John","age":3}']);
  });

  it("builds at most MAX_NESTING levels and skips the rest", () => {
    const depth = MAX_NESTING + 50;
    const [root] = fixingParse(`${"[".repeat(depth)}1${"]".repeat(depth)} {"after": true}`);
    expect(root!.repairs).toContain("nesting too deep");
    expect(fixingParse(`${"[".repeat(depth)}${"]".repeat(depth)} {"after": true}`)).toHaveLength(2);
  });
});

describe("FixingParser fed in chunks", () => {
  const samples = [
    '{"name": "Kim "MJ" Minjun", "age": 3, note: hello world, "x": [1 2 3], "e": "caf\\u00e9\\beta"}',
    "prose [1] then {a: 'it\\'s', /* c */ b: None, c: \"line\nbreak\", d: 1.5e3,} // end",
    '```json\n{"a": "x", "b": {"c": [true, false, null]}}\n```',
    '{"a": "He said "no", then left", \'b\': `tick`, “c”: “smart”}',
    '{"kind": "cat"/* a comment right after a closing quote */, "b": "x"// and a line comment\n}',
    '{"code": """\ndef f():\n    return "x"\n""", "empty": "", "n": ["", """"""]}',
    // Whitespace runs (skipped in one loop) of every kind, cut anywhere.
    '{\n    "a":   "x",\n\t\u00a0 "b" : [ 1 ,  2 ]  ,\r\n  "c":\n\n  {}  }',
    // Number and literal tokens (scanned in runs) cut anywhere, also right before a `/`.
    "[12 /x/, 3.5/* c */, 7 // d\n, tRUE, None, nonE, 1., .5, 1e, +7, -, 1e+5, 00, truth]",
    "{a: 12/* c */, b: 3 // d\n, c: 4 /x, d: True}",
    // Strings found by native searches: escapes, raw line breaks and other quotes between closers.
    '{"a": "x\\"y\\n\nz\\\\", "b": “p\\“q\n”, "c": \'it\\\'s "x"\', "d": `a\\`b\n`, "e": "\\u00e9\n\\"}',
    // Smart quotes close with either quote of their pair.
    '{“a”: ”b“, ‘c’: ’d‘, "e": "x" "f": 1}',
    // The look-ahead for an unquoted key after a comma, with a non-ASCII letter and a non-letter.
    '{"a": Smith, Jöhn: 1, "b": x, 😀: 2}',
    // Triple quotes and code blocks as values: the line breaks by their quotes, an info line.
    '{"a": """\nx\n""", "b": ```ts main.ts\nlet y = "z";\n```, "c": ```one```, "d": """\n\n"""}',
    // Indented triple quotes and code blocks: the first line's indentation goes from every line.
    '[```py\n    if x:\n        y()\n  z\n    ```, """\n\t\ta\n\t\t\tb\n\t""", """\n  \\n  q\n"""]',
    // Unquoted values over lines and with parentheses; list items with an inner quote still open.
    '{a: one\n  two, b: f(x, y), c: 3\nd: ["say "hi", then "bye"", "x", "y "z", "w"]}',
  ];
  it.each(samples)("gives the same trees for every split point of %s", (text) => {
    const whole = fixingParse(text);
    for (let split = 1; split < text.length; split++) {
      const parser = new FixingParser();
      parser.push(text.slice(0, split));
      parser.push(text.slice(split));
      expect(parser.end()).toEqual(whole);
    }
  });

  it("gives the same trees one character at a time", () => {
    for (const text of samples) {
      const parser = new FixingParser();
      for (const char of text) parser.push(char);
      expect(parser.end()).toEqual(fixingParse(text));
    }
  });

  /** Every complete container's written text, in document order (`-` for one that has none). */
  function writtenTexts(nodes: JsonishNode[]): string[] {
    const out: string[] = [];
    const walk = (node: JsonishNode) => {
      if (node.kind !== "object" && node.kind !== "array") return;
      out.push(writtenText(node) ?? "-");
      for (const child of node.kind === "array" ? node.items : node.entries.map((entry) => entry[1]))
        walk(child);
    };
    for (const node of nodes) walk(node);
    return out;
  }

  it.each(samples)("gives containers their text as written for every split point of %s", (text) => {
    const roots = fixingParse(text).map((root) => root.node);
    const expected = writtenTexts(roots);
    // The text between each complete container's brackets; a cut-off one has none.
    expect(expected.filter((written) => written !== "-").every((written) => text.includes(written))).toBe(
      true,
    );
    for (let split = 1; split < text.length; split += 3) {
      const parser = new FixingParser(5);
      parser.push(text.slice(0, split));
      parser.push(text.slice(split, split + 2));
      parser.push(text.slice(split + 2));
      expect(writtenTexts(parser.end().map((root) => root.node))).toEqual(expected);
    }
  });

  it("gives a container its own text, read in chunks that started before it", () => {
    const parser = new FixingParser();
    for (const chunk of ["Sure: {pro", "ps: {title", ": x}, n: [1,", " 2]} and {a: ["]) parser.push(chunk);
    expect(writtenTexts(parser.end().map((root) => root.node))).toEqual([
      "{props: {title: x}, n: [1, 2]}",
      "{title: x}",
      "[1, 2]",
      "-",
      "-",
    ]);
  });

  it("shows the tree read so far between chunks", () => {
    const parser = new FixingParser();
    parser.push('{"items": ["a", "b');
    expect(parser.insideValue).toBe(true);
    expect(nodeToJsonText(parser.roots[0]!.node)).toBe('{"items":["a","b"]}');
  });

  it("waits at a closing quote that ends a chunk, then closes the string", () => {
    const parser = new FixingParser();
    parser.push('{"a": "xy"');
    const root = parser.roots[0]!.node;
    const value = root.kind === "object" ? root.entries[0]![1] : undefined;
    expect(value).toMatchObject({ kind: "string", value: "xy", complete: false });
    parser.push(",\n");
    expect(value).toEqual({ kind: "string", value: "xy", complete: true, start: 6, end: 10 });
  });

  it("gives every node the offsets of its text", () => {
    const text = '{"a": [1, true], b: x y, "c": "q"';
    const spans: string[] = [];
    const visit = (node: JsonishNode) => {
      spans.push(text.slice(node.start, node.end));
      if (node.kind === "array") node.items.forEach(visit);
      if (node.kind === "object") for (const [, value] of node.entries) visit(value);
    };
    visit(fixingParse(text)[0]!.node);
    expect(spans).toEqual([text, "[1, true]", "1", "true", "x y", '"q"']);
  });

  it.each([
    ["a whitespace run cut in two", ['{"a":  \n  ', "    1,\n  ", '  "b": 2}'], '{"a":1,"b":2}'],
    ["a number cut before a `/` and a comment", ["[12", "3 /", "/ c\n, 4 /", "* d */]"], "[123,4]"],
    [
      "a string cut at its escape and at its closer",
      ['{"a": "x\\', 'ny"', ', "b": "', "\\u00", 'e9"}'],
      JSON.stringify({ a: "x\ny", b: "é" }),
    ],
    ["a literal cut in the middle", ["[tr", "ue, Non", "e]"], "[true,null]"],
  ])("resumes %s exactly where it stopped", (_name, chunks, expected) => {
    const parser = new FixingParser();
    for (const chunk of chunks) parser.push(chunk);
    const roots = parser.end();
    expect(roots.map((root) => nodeToJsonText(root.node))).toEqual([expected]);
    expect(roots).toEqual(fixingParse(chunks.join("")));
  });

  it("reads literals and numbers as the whole-text parse does", () => {
    expect(
      read("[12 /x/, 3.5/* c */, 7 // d\n, tRUE, None, nonE, 1., .5, 1e, +7, -, 1e+5, 00, truth]"),
    ).toEqual(['[12,"/x/",3.5,7,true,null,null,1.,.5,"1e",+7,"-",1e+5,00,"truth"]']);
    expect(read('{"a": Smith, Jöhn: 1, "b": x, 😀: 2}')).toEqual(['{"a":"Smith","Jöhn":1,"b":"x, 😀: 2"}']);
  });

  it("refuses more text after end()", () => {
    const parser = new FixingParser();
    parser.end();
    expect(() => parser.push("x")).toThrow(/after end/);
  });
});
