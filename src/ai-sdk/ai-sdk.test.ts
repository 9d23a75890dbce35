import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parsePartial, zodTypedSchema } from "../zod/index.js";
import { createAppendingParser } from "./index.js";

const Recipe = z.object({
  name: z.string(),
  servings: z.int().min(1),
  ingredients: z.array(z.string()),
  difficulty: z.enum(["EASY", "MEDIUM", "HARD"]),
});

const ANSWER =
  "Sure! Here is the recipe you asked for:\n```json\n{name: 'Pancakes', servings: '4', ingredients: ['flour', 'milk', 'eggs'], difficulty: 'easy',}\n```\nEnjoy!";

describe("createAppendingParser", () => {
  it("pushes only what was appended: a stream costs its length, not the sum of its prefixes", () => {
    const parser = createAppendingParser(zodTypedSchema(Recipe));
    for (let end = 1; end <= ANSWER.length; end += 1) {
      const read = parser.read(ANSWER.slice(0, end));
      if (end === ANSWER.length) expect(read.value).toEqual(parsePartial(Recipe, ANSWER).value);
    }
    expect(parser.charactersParsed).toBe(ANSWER.length);
  });

  it("starts over when the text does not extend the last one (a new step, another call)", () => {
    const parser = createAppendingParser(zodTypedSchema(Recipe));
    parser.read('{"name": "Pan');
    const other = parser.read('{"name": "Wa');
    expect(other.value).toMatchObject({ name: "Wa" });
    expect(parser.charactersParsed).toBe('{"name": "Pan'.length + '{"name": "Wa'.length);
  });
});
