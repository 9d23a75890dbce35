/**
 * The AI SDK cases, run once per supported major: `ai-sdk-6.test.ts` imports this as it is (`ai` is AI SDK
 * 6), `ai-sdk-7.test.ts` first points `ai` and `ai/test` at the `ai-v7` alias, so both the cases and
 * `sapling-llm/ai-sdk` itself load AI SDK 7.
 */

import { toStandardJsonSchema } from "@valibot/to-json-schema";
import {
  generateText,
  jsonSchema,
  NoObjectGeneratedError,
  simulateReadableStream,
  streamText,
  type ToolCallRepairFunction,
  type ToolSet,
  tool,
} from "ai";
import { MockLanguageModelV3 } from "ai/test";
import * as v from "valibot";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { repairToolCall, SchemaParseError, saplingOutput } from "../../src/ai-sdk/index.js";
import { parsePartial } from "../../src/zod/index.js";

export function describeAiSdk(major: 6 | 7): void {
  describe(`AI SDK ${major}`, () => {
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
      for (let offset = 0; offset < text.length; offset += size)
        chunks.push(text.slice(offset, offset + size));
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
          // AI SDK 7 names the system text `instructions`; 6 names it `system`.
          ...(major === 7
            ? { instructions: output.instructions("You are a chef.") }
            : { system: output.system("You are a chef.") }),
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
        expect(call?.prompt[0]).toEqual({
          role: "system",
          content: `You are a chef.\n\n${output.outputFormat}`,
        });
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
        expect(
          names.some((name) => name !== null && name !== "Pancakes" && "Pancakes".startsWith(name)),
        ).toBe(true);
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

    describe("elementStream", () => {
      const Steps = z.array(z.object({ step: z.int(), action: z.string() }));
      const STEPS =
        'Plan:\n```json\n[{"step": 1, "action": "preheat"}, {step: 2, action: \'mix\'}, {"step": "3", "action": "bake"}]\n```';

      it("hands out each element once, whole, as the next one starts; the last at the end", async () => {
        const result = streamText({ model: mockModel(STEPS, 7), prompt: "x", output: saplingOutput(Steps) });
        const elements: unknown[] = [];
        for await (const element of result.elementStream) {
          expectTypeOf(element).toEqualTypeOf<{ step: number; action: string }>();
          elements.push(element);
        }
        expect(elements).toEqual([
          { step: 1, action: "preheat" },
          { step: 2, action: "mix" },
          { step: 3, action: "bake" },
        ]);
        expect(await result.output).toEqual(elements);
      });

      it("has no element stream for an object output (the SDK says so)", () => {
        const result = streamText({ model: mockModel(ANSWER), prompt: "x", output: saplingOutput(Recipe) });
        expect(() => result.elementStream).toThrow(/element stream/i);
      });
    });

    describe("schemas the SDK accepts", () => {
      it("reads the SDK's own jsonSchema() wrapper, and runs its validate after Sapling's", async () => {
        const seen: unknown[] = [];
        const schema = jsonSchema<{ name: string; servings: number }>(
          {
            type: "object",
            properties: { name: { type: "string" }, servings: { type: "integer" } },
            required: ["name", "servings"],
          },
          {
            validate: (value) => {
              seen.push(value);
              const recipe = value as { name: string; servings: number };
              return recipe.servings > 0
                ? { success: true, value: { ...recipe, name: recipe.name.toUpperCase() } }
                : { success: false, error: new Error("servings must be positive") };
            },
          },
        );
        const result = await generateText({
          model: mockModel(ANSWER),
          prompt: "x",
          output: saplingOutput(schema),
        });
        expectTypeOf(result.output).toEqualTypeOf<{ name: string; servings: number }>();
        expect(result.output).toEqual({ name: "PANCAKES", servings: 4 });
        expect(seen).toEqual([{ name: "Pancakes", servings: 4 }]);

        const error = await generateText({
          model: mockModel("{name: 'Tea', servings: 0}"),
          prompt: "x",
          output: saplingOutput(schema),
        }).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(NoObjectGeneratedError.isInstance(error)).toBe(true);
        expect((error as NoObjectGeneratedError).cause).toMatchObject({
          code: "validation-failed",
          issues: [{ message: "servings must be positive" }],
        });
      });

      it("reads a Valibot schema through its Standard JSON Schema converter, with Valibot's own checks", async () => {
        const Dish = toStandardJsonSchema(
          v.object({
            name: v.string(),
            servings: v.pipe(v.number(), v.integer(), v.minValue(1)),
            difficulty: v.picklist(["EASY", "MEDIUM", "HARD"]),
          }),
        );
        const result = await generateText({
          model: mockModel(ANSWER),
          prompt: "x",
          output: saplingOutput(Dish),
        });
        expectTypeOf(result.output).toEqualTypeOf<{
          name: string;
          servings: number;
          difficulty: "EASY" | "MEDIUM" | "HARD";
        }>();
        expect(result.output).toEqual({ name: "Pancakes", servings: 4, difficulty: "EASY" });

        const error = await generateText({
          model: mockModel("{name: 'Tea', servings: 0, difficulty: 'EASY'}"),
          prompt: "x",
          output: saplingOutput(Dish),
        }).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect((error as NoObjectGeneratedError).cause).toMatchObject({
          code: "validation-failed",
          issues: [{ path: ["servings"] }],
        });
      });

      it("refuses a Standard Schema that cannot give its JSON Schema, saying how to fix it", () => {
        expect(() => saplingOutput(v.object({ name: v.string() }))).toThrow(/toStandardJsonSchema/);
      });
    });

    describe("repairToolCall", () => {
      const tools = {
        weather: tool({
          description: "The weather in a city",
          inputSchema: z.object({ city: z.string(), days: z.int() }),
          execute: async ({ city, days }) => `${city}: sunny for ${days} days`,
        }),
      };

      /** A model that calls `weather` with `input` first, then answers in text. */
      function toolModel(input: string): MockLanguageModelV3 {
        let calls = 0;
        return new MockLanguageModelV3({
          doGenerate: async () => {
            calls += 1;
            if (calls > 1) {
              return {
                content: [{ type: "text", text: "done" }],
                finishReason: { unified: "stop", raw: "stop" },
                usage,
                warnings: [],
              };
            }
            return {
              content: [{ type: "tool-call", toolCallId: "c1", toolName: "weather", input }],
              finishReason: { unified: "tool-calls", raw: "tool_calls" },
              usage,
              warnings: [],
            };
          },
        });
      }

      async function run(input: string) {
        const repair: ToolCallRepairFunction<ToolSet> = repairToolCall();
        const result = await generateText({
          model: toolModel(input),
          tools,
          prompt: "weather?",
          experimental_repairToolCall: repair,
        });
        return result.steps[0]?.toolResults.map((result) => result.output);
      }

      it("reads broken arguments toward the tool's schema, with no second model call", async () => {
        expect(await run("```json\n{city: 'Oslo', days: '3',}\n```")).toEqual(["Oslo: sunny for 3 days"]);
      });

      it("leaves arguments that name no value of the schema to the SDK's own error", async () => {
        const results = await run("I cannot decide which city.");
        expect(results).toEqual([]);
      });
    });
  });
}
