import { describe, expect, it, vi } from "vitest";
import { IrIndex, type Type } from "../../ir/index.js";
import { compile, parseTypeExpression } from "../../language/index.js";
import { SECTIONS_REPAIR } from "../choose/candidate.js";
import { FixingParser } from "../lenient/fixing-parser.js";
import { nodeToJsonText } from "../lenient/jsonish-node.js";
import { parseStrictJson } from "../lenient/parse-strict-json.js";
import { AnswerScanner } from "./answer-scanner.js";
import { PartialReader } from "./partial-reader.js";

/** The fences of a whole answer, as the scanner cuts them: tag, content, closed. */
function fencesOf(text: string) {
  const scanner = new AnswerScanner();
  scanner.push(text, true);
  return scanner.regions
    .filter((region) => region.kind === "fence")
    .map((region) => ({
      tag: region.tag,
      content: region.content,
      closed: region.closed,
      contentStart: region.contentStart,
      region,
    }));
}

describe("fences of a whole answer", () => {
  it("finds tagged, untagged, one-line and unclosed fences", () => {
    const fences = fencesOf('a\n```json\n{"a": 1}\n```\nb ```{"b": 2}``` c\n```\nopen');
    expect(fences.map((fence) => [fence.tag, fence.content.trim(), fence.closed])).toEqual([
      ["json", '{"a": 1}', true],
      ["", '{"b": 2}', true],
      ["", "open", false],
    ]);
  });

  it("ends a JSON fence inside a string of its content only at a run alone on its line", () => {
    // Mid-line: text of the string. Alone on its line: the string's closing quote was dropped.
    expect(fencesOf('```json\n{"a": "x ``` y"}\n```')[0]!.content).toBe('{"a": "x ``` y"}\n');
    expect(fencesOf('```json\n{"a": "x\n```\ny"}\n```')[0]!.content).toBe('{"a": "x\n');
    // A run that closes a code block the string opened is its text.
    const block = '```json\n{"a": "x\n```sh\nls\n```\n"}\n```';
    expect(fencesOf(block)[0]!.content).toBe('{"a": "x\n```sh\nls\n```\n"}\n');
  });

  it("ends a JSON fence mid-line only outside any value, a code fence where its line ends", () => {
    expect(fencesOf('```json\n{"a": 1}``` bye').map((fence) => [fence.content, fence.closed])).toEqual([
      ['{"a": 1}', true],
    ]);
    expect(fencesOf('```json\n{"code": ```\nx\n```,\n"b": 1}\n```')[0]!.content).toBe(
      '{"code": ```\nx\n```,\n"b": 1}\n',
    );
    expect(fencesOf("```ts\nconst a = `$b`+```;\n```")[0]!.content).toBe("const a = `$b`+```;\n");
    expect(fencesOf("```ts\nf()```\n")[0]!.content).toBe("f()");
  });

  it("closes a fence only at a run of backticks at least as long as the opening one", () => {
    const [fence] = fencesOf("````markdown\n```json\n{}\n```\n````\nafter");
    expect([fence!.tag, fence!.content, fence!.closed]).toEqual(["markdown", "```json\n{}\n```\n", true]);
  });

  it("does not end a block at backticks inside a JSON string", () => {
    const [fence] = fencesOf('```json\n{"code": "```py```"}\n```');
    expect(fence!.content.trim()).toBe('{"code": "```py```"}');
  });
});

/** The readings the end of a read chooses from, for `type` (`PartialReader.readings`). */
function readingsOf(text: string, type: Type, index: IrIndex) {
  const reader = new PartialReader(type, index, { collectFlags: false });
  reader.pushLast(text);
  return reader.readings(text, parseStrictJson(text), new Map());
}

describe("the readings at the end of a read", () => {
  const { ir } = compile({ "a.baml": "class A {\n  a int\n}" });
  const index = new IrIndex(ir!);
  const type = parseTypeExpression("A[]", ir!).type!;
  const summary = (text: string) =>
    readingsOf(text, type, index).map((candidate) => `${candidate.origin}:${nodeToJsonText(candidate.node)}`);

  it("stops at strict JSON (plus the text itself)", () => {
    expect(summary('{"a": 1}')).toEqual(['json:{"a":1}', 'text:"{\\"a\\": 1}"']);
  });

  it("offers fences, prose containers, all objects gathered, and the text", () => {
    expect(summary('draft {"a": 1}\n```json\n{"a": 2}\n```')).toEqual([
      'prose:{"a":1}',
      'fence:{"a":2}',
      'text:"{\\"a\\": 2}"',
      'combined:[{"a":1},{"a":2}]',
      'text:"draft {\\"a\\": 1}\\n```json\\n{\\"a\\": 2}\\n```"',
    ]);
  });

  it("parses a fence of valid JSON once, for the closing rule and the candidates alike", () => {
    const parse = vi.spyOn(JSON, "parse");
    try {
      expect(summary('Here it is:\n```json\n{"a": 1}\n```\n')).toContain('fence:{"a":1}');
      expect(parse.mock.calls.filter(([text]) => text === '{"a": 1}')).toHaveLength(1);
    } finally {
      parse.mockRestore();
    }
  });

  it("reads the prose before a fence once, for the opening rule and its candidates alike", () => {
    const push = vi.spyOn(FixingParser.prototype, "push");
    try {
      expect(summary('draft {"a": 1,}\n```json\n{"a": 2}\n```')).toContain('prose:{"a":1}');
      const read = push.mock.calls.map(([chunk]) => chunk).join("");
      expect(read.split('{"a": 1,}')).toHaveLength(2);
    } finally {
      push.mockRestore();
    }
  });

  it("offers the complete containers inside an unclosed one, tied to it", () => {
    const candidates = readingsOf('range [0, 10) is {"a": 1}', type, index);
    const nested = candidates.find((candidate) => candidate.parent !== undefined);
    expect(nested && nodeToJsonText(nested.node)).toBe('{"a":1}');
    expect(nested?.parent?.node.kind).toBe("array");
  });

  it("reads each fence's content whole: valid JSON parsed, else its roots at offsets in the answer", () => {
    const text = '```json\n{"a": 1}\n```\n```json\n{a: [1, 2,]}\n```\n```\n{"b": "```"';
    const fences = readingsOf(text, type, index).filter((candidate) => candidate.origin === "fence");
    expect(fences.map((fence) => [fence.json?.value, fence.span, fence.repairs.length > 0])).toEqual([
      [{ a: 1 }, { start: 8, end: 17 }, false],
      [undefined, { start: text.indexOf("{a:"), end: text.indexOf("{a:") + "{a: [1, 2,]}".length }, true],
      [undefined, { start: text.lastIndexOf("{"), end: text.length }, true],
    ]);
    expect(fences[2]!.repairs).toContain("unclosed fence");
  });

  it("reads a content as JSON whole when only the part before a run inside its string is not", () => {
    const string = parseTypeExpression("string", ir!).type!;
    const [fence] = readingsOf('```json\n"a ``` b"\n```', string, index).filter((c) => c.origin === "fence");
    expect(fence!.json).toEqual({ value: "a ``` b" });
  });

  it("reads a bare Python literal", () => {
    expect(summary("None")).toContain("prose:null");
  });
});

describe("the readings at the end of a read, with a sections reading", () => {
  const { ir } = compile({
    "digest.baml":
      "class Item {\n  name string\n  tags string[]\n}\nclass Digest {\n  title string\n  items Item[]\n}",
  });
  const digest = parseTypeExpression("Digest", ir!).type!;
  const index = new IrIndex(ir!);

  it("offers no flow list of a YAML block under a key as a reading of the whole answer", () => {
    const items = Array.from({ length: 40 }, (_, at) => `  - name: n${at}\n    tags: [x, y]`).join("\n");
    const candidates = readingsOf(`title: W\nitems:\n${items}`, digest, index);
    // (The sections reading, and the text itself.)
    expect(candidates.map((candidate) => candidate.origin)).toEqual(["prose", "text"]);
    expect(candidates[0]!.repairs).toEqual([SECTIONS_REPAIR]);
  });

  it("still offers a JSON value outside the YAML block", () => {
    const text = 'title: W\nitems:\n  - name: a\n    tags: [x]\n\nAlso: ["b", "c"]';
    const candidates = readingsOf(text, digest, index);
    expect(
      candidates.filter((c) => c.origin === "prose" && c.repairs[0] !== SECTIONS_REPAIR).map((c) => c.span),
    ).toEqual([{ start: text.lastIndexOf("["), end: text.length }]);
  });
});
