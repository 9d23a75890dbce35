import { describe, expect, it } from "vitest";
import { nodeToJsonText } from "./jsonish-node.js";
import { readLabelLines } from "./read-label-lines.js";

describe("readLabelLines", () => {
  it("reads key: value lines, scalars typed as written", () => {
    const node = readLabelLines("name: 'Ann'\nage: 31\nactive: True\nnote: None\n");
    expect(node && nodeToJsonText(node)).toBe('{"name":"Ann","age":31,"active":true,"note":null}');
  });

  it("collects bullet lines under an empty key", () => {
    const node = readLabelLines("title: Plan\nsteps:\n- one\n2) two\nowner: me");
    expect(node && nodeToJsonText(node)).toBe('{"title":"Plan","steps":["one","two"],"owner":"me"}');
  });

  it("needs at least two labels, so a lone 'Note:' in prose is not data", () => {
    expect(readLabelLines("Note: nothing to report.\nThanks!")).toBeUndefined();
  });

  it("ignores sentences whose text before the colon is too long to be a key", () => {
    expect(readLabelLines("Here is what I found after a long look: nothing\nx: 1")).toBeUndefined();
  });
});
