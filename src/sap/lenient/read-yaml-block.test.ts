import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FixingParser } from "./fixing-parser.js";
import { type ArrayNode, writtenText } from "./jsonish-node.js";
import { flowListOfWords, yamlScalar } from "./read-yaml-block.js";

/** The fixing parser's reading of `text` as yamlScalar takes it (one root, closed, nothing after it). */
function parsed(text: string): ArrayNode | undefined {
  const parser = new FixingParser();
  parser.push(text);
  const roots = parser.end();
  const root = roots[0];
  if (roots.length !== 1 || root === undefined || !root.node.complete) return undefined;
  if (text.slice(root.end).trim() !== "" || root.node.kind !== "array") return undefined;
  return root.node;
}

/** A node as plain data: its spans, and its written text in place of its source. */
function shown(node: ArrayNode | undefined): unknown {
  return node === undefined ? undefined : { ...node, source: writtenText(node) };
}

describe("flowListOfWords", () => {
  it("gives the fixing parser's node for a list of words, spans and written text included", () => {
    for (const text of ["[x, y]", "[x,y]", "[ x , y ]", "[x,\ty]", "[]", "[ ]", "[Item_1, b2, _c]"]) {
      const node = flowListOfWords(text);
      expect(node, text).toBeDefined();
      expect(shown(node), text).toEqual(shown(parsed(text)));
    }
  });

  it("leaves to the parser what is not a list of plain words", () => {
    for (const text of ["[x,]", "[x,,y]", "[1, 2]", "[x, True]", "[None]", "[undefined]", "['x']", "[x y]"])
      expect(flowListOfWords(text), text).toBeUndefined();
    for (const text of ["[x: y]", "[é]", "[x] y", "[x, [y]]", "[x", "[x, y] "])
      expect(flowListOfWords(text), text).toBeUndefined();
    // (Through yamlScalar, those are still read, by the parser.)
    expect(yamlScalar("[1, TRUE, x]")).toMatchObject({
      kind: "array",
      items: [{ kind: "number", value: 1 }, { kind: "bool", value: true }, { value: "x" }],
    });
  });

  it("agrees with the fixing parser on any text it reads", () => {
    const piece = fc.constantFrom(
      "x",
      "y2",
      "_a",
      "True",
      "none",
      "Null",
      "1",
      "'q'",
      ",",
      ", ",
      " ",
      "\t",
      ":",
      "é",
      "[",
      "]",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const text = `[${pieces.join("")}]`;
        const node = flowListOfWords(text);
        if (node !== undefined) expect(shown(node)).toEqual(shown(parsed(text)));
      }),
      { numRuns: 3000 },
    );
  });
});
