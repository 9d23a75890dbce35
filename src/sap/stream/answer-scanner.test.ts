import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AnswerScanner } from "./answer-scanner.js";

/** Regions as plain data: kind, tag, fence content, closed, and the roots found in each. */
function regionsOf(chunks: string[]) {
  const scanner = new AnswerScanner();
  for (const chunk of chunks) scanner.push(chunk);
  return scanner.regions.map((region) => ({
    kind: region.kind,
    start: region.start,
    tag: region.tag,
    content: region.content,
    closed: region.closed,
    ended: region.ended,
    roots: region.parser.roots.map((root) => ({ node: root.node, start: root.start })),
  }));
}

describe("AnswerScanner", () => {
  it("splits prose and fences, reading each with its own parser", () => {
    const regions = regionsOf(['Here:\n```json\n{"a": 1}\n```\nBye {"b": 2}']);
    expect(regions.map((region) => [region.kind, region.tag, region.closed, region.roots.length])).toEqual([
      ["prose", "", false, 0],
      ["fence", "json", true, 1],
      ["prose", "", false, 1],
    ]);
    expect(regions[1]!.content).toBe('{"a": 1}\n');
    expect(regions[1]!.start).toBe(6);
  });

  it("keeps a fence open until its closing line ends", () => {
    const open = regionsOf(['```json\n{"a": 1}\n```']);
    expect(open.map((region) => region.kind)).toEqual(["prose", "fence"]);
    expect(open[1]!.closed).toBe(false);
    expect(regionsOf(['```json\n{"a": 1}\n```\n'])[1]!.closed).toBe(true);
  });

  it("reads a one-line fence's content after its tag", () => {
    const regions = regionsOf(['```json {"a": 1}```\n']);
    expect(regions[1]!.content).toBe(' {"a": 1}');
    expect(regions[1]!.closed).toBe(true);
  });

  it("does not open a fence at backticks inside a JSON value, mid-line", () => {
    const regions = regionsOf(['{"code": "```js\\nx()\\n```", "b": 1}']);
    expect(regions).toHaveLength(1);
    expect(regions[0]!.roots[0]!.node).toMatchObject({ complete: true });
  });

  it("cuts fences as the whole answer read at once does, whatever the chunks", () => {
    const texts: [string, [string, string, boolean][]][] = [
      [
        'Here:\n```json\n{"body": "Use this:\n```python\nprint(1)\n```\nDone."}\n```\nbye',
        [["json", '{"body": "Use this:\n```python\nprint(1)\n```\nDone."}\n', true]],
      ],
      [
        '```json\n{"code": ```\n  x()\n```,\n  "type": "code"\n}\n```\n',
        [["json", '{"code": ```\n  x()\n```,\n  "type": "code"\n}\n', true]],
      ],
      ['```json\n{"a": 1}``` Hope this helps!\n', [["json", '{"a": 1}', true]]],
      ['```json\n{"a": 1}\n``` Hope this helps!\n', [["json", '{"a": 1}\n', true]]],
      ["````markdown\n```json\n{}\n```\n````\nafter\n", [["markdown", "```json\n{}\n```\n", true]]],
      ["```ts\nconst a = `$b`+```;\nf()```\nafter\n", [["ts", "const a = `$b`+```;\nf()", true]]],
      [
        '```json {"a": 1}``` and ```json {"b": 2}```\n',
        [
          ["json", ' {"a": 1}', true],
          ["json", ' {"b": 2}', true],
        ],
      ],
      ["```\nUse ```make``` first\nNEGATIVE```  \n", [["", "Use ```make``` first\nNEGATIVE", true]]],
    ];
    for (const [text, expected] of texts) {
      // (A trailing line break, so the stream has decided every run by the end.)
      const whole = new AnswerScanner();
      whole.push(text, true);
      const fencesOf = (regions: typeof whole.regions) =>
        regions
          .filter((region) => region.kind === "fence")
          .map((region) => [region.tag, region.content, region.closed]);
      expect(fencesOf(whole.regions), text).toEqual(expected);
      for (const chunks of [[text], text.split("")]) {
        const fences = regionsOf(chunks)
          .filter((region) => region.kind === "fence")
          .map((region) => [region.tag, region.content, region.closed]);
        expect(fences, text).toEqual(expected);
      }
    }
  });

  it("holds a run whose line may still end while its fence's reader has read up to it", () => {
    const text = "```\nNEGATIVE```  \nbye";
    const whole = regionsOf([text]);
    expect(regionsOf(["```\nNEGATIVE```  ", "\nbye"])).toEqual(whole);
    expect([whole[1]!.content, whole[1]!.closed]).toEqual(["NEGATIVE", true]);
  });

  it("keeps each fence's content trimmed as it arrives, as trim gives it, whatever the chunks", () => {
    const text = "```\n \t\u3000 two  words \n\n  and more\u00a0 \n```\n```\n   \n```\n```\n x";
    fc.assert(
      fc.property(fc.array(fc.nat({ max: text.length }), { maxLength: 12 }), (cuts) => {
        const scanner = new AnswerScanner();
        let from = 0;
        for (const point of [...new Set(cuts)].sort((a, b) => a - b)) {
          scanner.push(text.slice(from, point));
          from = point;
        }
        scanner.push(text.slice(from));
        const fences = scanner.regions.filter((region) => region.kind === "fence");
        expect(fences.map((region) => region.trimmed)).toEqual(["two  words \n\n  and more", "", "x"]);
        for (const region of fences) expect(region.trimmed).toBe(region.content.trim());
      }),
      { numRuns: 200 },
    );
  });

  it("leaves the same regions whatever the chunks (property)", () => {
    const text =
      'Sure!\n```json\n{"a": "x`y", "b": [1, 2]}\n```\nAnd ``` more {"c": 3} ``\n```\n[4]\n' +
      "```\nUse ```make```  first\n````\n```ts\nf()```  \n";
    const whole = regionsOf([text]);
    fc.assert(
      fc.property(fc.array(fc.nat({ max: text.length }), { maxLength: 10 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks: string[] = [];
        let from = 0;
        for (const point of points) {
          chunks.push(text.slice(from, point));
          from = point;
        }
        chunks.push(text.slice(from));
        expect(regionsOf(chunks)).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });
});
