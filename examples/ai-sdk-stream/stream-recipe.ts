/**
 * The Vercel AI SDK's `streamText` with Sapling's output: a Zod schema, the compact schema text in the
 * system prompt, typed partials while the answer streams, the validated value at the end. The model is the
 * AI SDK's own mock (`ai/test`), answering the way small models do — chatty, fenced, bare keys, single
 * quotes, a number as a string, the enum in its own spelling — so this runs offline:
 * `npx tsx examples/ai-sdk-stream/stream-recipe.ts` (from this folder: `npx tsx stream-recipe.ts`).
 */
import { simulateReadableStream, streamText } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { saplingOutput } from "sapling-llm/ai-sdk";
import { z } from "zod";

const Recipe = z.object({
  name: z.string(),
  servings: z.int().min(1),
  ingredients: z.array(z.object({ item: z.string(), grams: z.number().optional() })),
  difficulty: z.enum(["EASY", "MEDIUM", "HARD"]).describe("how hard it is for a beginner"),
  tips: z.array(z.string()).default([]),
});

const answer = `Sure! Here's a simple recipe:

\`\`\`json
{
  name: 'Buttermilk pancakes',
  servings: '4',
  ingredients: [
    {item: 'flour', grams: 250},
    {item: 'buttermilk', grams: 500},
    {item: 'eggs'},
  ],
  difficulty: 'Easy',
}
\`\`\`
Enjoy your breakfast!`;

const usage = {
  inputTokens: { total: 42, noCache: 42, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 64, text: 64, reasoning: undefined },
};
const chunks = answer.match(/[\s\S]{1,12}/g) ?? [];
const model = new MockLanguageModelV3({
  doStream: async () => ({
    stream: simulateReadableStream({
      chunks: [
        { type: "text-start", id: "answer" },
        ...chunks.map((delta) => ({ type: "text-delta" as const, id: "answer", delta })),
        { type: "text-end", id: "answer" },
        { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
      ],
    }),
  }),
});

const output = saplingOutput(Recipe);
const result = streamText({
  model,
  system: output.system("You are a patient cooking teacher."),
  prompt: "A pancake recipe, please.",
  output,
});

console.log("system prompt:");
console.log(output.system("You are a patient cooking teacher."));
console.log("");
for await (const partial of result.partialOutputStream) {
  // Typed: `partial.ingredients` is a list of partial ingredients; fields not written yet are null.
  const items = (partial.ingredients ?? []).map((ingredient) => ingredient?.item ?? "…").join(", ");
  console.log(`partial: ${partial.name ?? "…"} | serves ${partial.servings ?? "…"} | ${items}`);
}
const recipe = await result.output;
console.log("");
console.log(`final: ${JSON.stringify(recipe)}`);
console.log(
  `typed: ${recipe.name} serves ${recipe.servings}; difficulty ${recipe.difficulty}; ${recipe.tips.length} tips`,
);
