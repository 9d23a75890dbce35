import { generateText, NoObjectGeneratedError, simulateReadableStream, streamText } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { parsePartial, zodTypedSchema } from "../zod/index.js";
import { createAppendingParser, SchemaParseError, saplingOutput } from "./index.js";

const Recipe = z.object({
  name: z.string(),
  servings: z.int().min(1),
  ingredients: z.array(z.string()),
  difficulty: z.enum(["EASY", "MEDIUM", "HARD"]),
});

const ANSWER =
  "Sure! Here is the recipe you asked for:\n```json\n{name: 'Pancakes', servings: '4', ingredients: ['flour', 'milk', 'eggs'], difficulty: 'easy',}\n```\nEnjoy!";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 20, text: 20, reasoning: undefined },
};

/** The AI SDK's own mock model, answering `text` in one piece (generate) or in `size`-character chunks (stream). */
function mockModel(text: string, size = 9): MockLanguageModelV3 {
  const chunks: string[] = [];
  for (let offset = 0; offset < text.length; offset += size) chunks.push(text.slice(offset, offset + size));
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: "text", text }],
      finishReason: { unified: "stop", raw: "stop" },
      usage,
      warnings: [],
    }),
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: "text-start", id: "t" },
          ...chunks.map((delta) => ({ type: "text-delta" as const, id: "t", delta })),
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
        ],
      }),
    }),
  });
}

describe("saplingOutput with generateText", () => {
  it("reads a chatty, fenced, mistyped answer into the Zod type; asks for plain text", async () => {
    const model = mockModel(ANSWER);
    const output = saplingOutput(Recipe);
    const result = await generateText({
      model,
      system: output.system("You are a chef."),
      prompt: "Pancakes?",
      output,
    });
    expectTypeOf(result.output).toEqualTypeOf<z.infer<typeof Recipe>>();
    expect(result.output).toEqual({
      name: "Pancakes",
      servings: 4,
      ingredients: ["flour", "milk", "eggs"],
      difficulty: "EASY",
    });
    const call = model.doGenerateCalls[0];
    expect(call?.responseFormat).toEqual({ type: "text" });
    expect(call?.prompt[0]).toEqual({ role: "system", content: `You are a chef.\n\n${output.outputFormat}` });
    expect(output.outputFormat).toContain("difficulty: 'EASY' or 'MEDIUM' or 'HARD'");
  });

  it("fails with the AI SDK's NoObjectGeneratedError whose cause is Sapling's SchemaParseError", async () => {
    const refused = "I'm sorry, I can't help with recipes.";
    const error = await generateText({
      model: mockModel(refused),
      prompt: "x",
      output: saplingOutput(Recipe),
    }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(NoObjectGeneratedError.isInstance(error)).toBe(true);
    const { cause, text, finishReason } = error as NoObjectGeneratedError;
    expect(text).toBe(refused);
    expect(finishReason).toBe("stop");
    expect(SchemaParseError.isInstance(cause)).toBe(true);
    expect(cause).toMatchObject({ raw: refused });
  });

  it("reports a failed refinement the same way, with Zod's issues on the cause", async () => {
    const error = await generateText({
      model: mockModel("{name: 'Tea', servings: 0, ingredients: ['tea'], difficulty: 'EASY'}"),
      prompt: "x",
      output: saplingOutput(Recipe),
    }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(NoObjectGeneratedError.isInstance(error)).toBe(true);
    expect((error as NoObjectGeneratedError).cause).toMatchObject({
      code: "validation-failed",
      issues: [{ path: ["servings"], code: "too_small" }],
    });
  });

  it("takes a JSON Schema too", async () => {
    const schema = z.toJSONSchema(Recipe);
    const result = await generateText({
      model: mockModel(ANSWER),
      prompt: "x",
      output: saplingOutput(schema),
    });
    expect(result.output).toMatchObject({ name: "Pancakes", servings: 4, difficulty: "EASY" });
  });
});

describe("saplingOutput with streamText", () => {
  it("streams typed partials, each what parsePartial reads from the text so far, then the final value", async () => {
    const result = streamText({
      model: mockModel(ANSWER),
      prompt: "Pancakes?",
      output: saplingOutput(Recipe),
    });
    const partials: unknown[] = [];
    for await (const partial of result.partialOutputStream) {
      expectTypeOf(partial).toMatchTypeOf<{ name?: string | null } | undefined>();
      partials.push(partial);
    }
    expect(partials.length).toBeGreaterThan(3);
    // Strings show their text so far: the name grows before it is complete.
    const names = partials.map((partial) => (partial as { name: string | null }).name);
    expect(names.some((name) => name !== null && name !== "Pancakes" && "Pancakes".startsWith(name))).toBe(
      true,
    );
    // Never backwards: every partial's ingredients extend the previous ones.
    const counts = partials.map((partial) => (partial as { ingredients: string[] }).ingredients.length);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(partials.at(-1)).toEqual(parsePartial(Recipe, ANSWER).value);
    expect(await result.output).toEqual({
      name: "Pancakes",
      servings: 4,
      ingredients: ["flour", "milk", "eggs"],
      difficulty: "EASY",
    });
  });
});

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
