import { describe, expect, it } from "vitest";
import { extractCandidates } from "./extract-candidates.js";
import { findFences } from "./find-fences.js";
import { nodeToJsonText } from "./jsonish-node.js";

describe("findFences", () => {
  it("finds tagged, untagged, one-line and unclosed fences", () => {
    const fences = findFences('a\n```json\n{"a": 1}\n```\nb ```{"b": 2}``` c\n```\nopen');
    expect(fences.map((fence) => [fence.tag, fence.content.trim(), fence.closed])).toEqual([
      ["json", '{"a": 1}', true],
      ["", '{"b": 2}', true],
      ["", "open", false],
    ]);
  });

  it("does not end a JSON fence at backticks inside a string of its content", () => {
    const text = '```json\n{"a": "x\n```\ny"}\n```';
    expect(findFences(text)[0]!.content).toBe('{"a": "x\n```\ny"}\n');
  });

  it("ends a JSON fence mid-line only outside any value, a code fence where its line ends", () => {
    expect(findFences('```json\n{"a": 1}``` bye').map((fence) => [fence.content, fence.closed])).toEqual([
      ['{"a": 1}', true],
    ]);
    expect(findFences('```json\n{"code": ```\nx\n```,\n"b": 1}\n```')[0]!.content).toBe(
      '{"code": ```\nx\n```,\n"b": 1}\n',
    );
    expect(findFences("```ts\nconst a = `$b`+```;\n```")[0]!.content).toBe("const a = `$b`+```;\n");
    expect(findFences("```ts\nf()```\n")[0]!.content).toBe("f()");
  });

  it("closes a fence only at a run of backticks at least as long as the opening one", () => {
    const [fence] = findFences("````markdown\n```json\n{}\n```\n````\nafter");
    expect([fence!.tag, fence!.content, fence!.closed]).toEqual(["markdown", "```json\n{}\n```\n", true]);
  });

  it("does not end a block at backticks inside a JSON string", () => {
    const [fence] = findFences('```json\n{"code": "```py```"}\n```');
    expect(fence!.content.trim()).toBe('{"code": "```py```"}');
  });
});

describe("extractCandidates", () => {
  const summary = (text: string) =>
    extractCandidates(text).map((candidate) => `${candidate.origin}:${nodeToJsonText(candidate.node)}`);

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

  it("offers the complete containers inside an unclosed one, tied to it", () => {
    const candidates = extractCandidates('range [0, 10) is {"a": 1}');
    const nested = candidates.find((candidate) => candidate.parent !== undefined);
    expect(nested && nodeToJsonText(nested.node)).toBe('{"a":1}');
    expect(nested?.parent?.node.kind).toBe("array");
  });

  it("reads a bare Python literal", () => {
    expect(summary("None")).toContain("prose:null");
  });
});
