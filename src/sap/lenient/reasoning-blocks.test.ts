import { describe, expect, it } from "vitest";
import { ReasoningBlocks } from "./reasoning-blocks.js";

/** The answer start of the whole `text`, given at once and ended. */
function afterReasoning(text: string): number | undefined {
  const blocks = new ReasoningBlocks();
  blocks.push(text);
  blocks.end();
  return blocks.answerStart;
}

/** The answer start after feeding `text` in chunks of `size` characters. */
function streamed(text: string, size: number): number | undefined {
  const blocks = new ReasoningBlocks();
  for (let at = 0; at < text.length; at += size) blocks.push(text.slice(at, at + size));
  return blocks.answerStart;
}

describe("reasoning blocks", () => {
  const cases: [string, number | undefined][] = [
    ["<think>a</think>B", 16],
    ["<THINKING>\nx\n</Thinking>\n\nGreeting", 24],
    ["<reasoning>r</reasoning>", undefined],
    ["<think>r</think>  \n", undefined],
    ["no tags at all", undefined],
    ["</think> an answer", 8],
    ["17*3=51, total 391.\n</think>\n\n391", 28],
    ["r</THINKING>a</thinking>b", 12],
    ["<think>a</think>b</think>c", 16],
    ["r</think>", undefined],
    ["<think>a</think>b<think>c</think>d", 33],
    ["<think>a</think>b<think>still thinking", 16],
    ["<think>a <thinking>b</thinking> c</think>d", 41],
    ["<thinkx>a</thinkx>b", undefined],
  ];
  for (const [text, start] of cases) {
    it(`finds where the answer starts in ${JSON.stringify(text)}`, () => {
      expect(afterReasoning(text)).toBe(start);
      for (const size of [1, 2, 3, 5, 7]) expect(streamed(text, size)).toBe(start);
    });
  }

  it("counts the blocks closed so far", () => {
    const blocks = new ReasoningBlocks();
    blocks.push("<think>a</thi");
    expect(blocks.closed).toBe(0);
    blocks.push("nk> b <think>c</think>");
    expect(blocks.closed).toBe(2);
    expect(blocks.answerStart).toBeUndefined();
    blocks.push(" d");
    expect(blocks.answerStart).toBe(35);
  });
});
