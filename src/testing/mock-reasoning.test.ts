/**
 * Reasoning ("thinking") text in every wire format that has it, written by the mock server and read by the
 * real adapters over a real socket: apart from the answer's text, whole and streamed, with reasoning and
 * cache-write tokens in the usage. DeepSeek-style `reasoning_content` rides on the OpenAI chat wire.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awsBedrock } from "../aws-bedrock/index.js";
import { createLanguageModel as createAnyLanguageModel } from "../llm/create-language-model.js";
import type { ModelStreamEvent } from "../llm/index.js";
import type { ChatMessage } from "../util/index.js";
import { answer, type MockRoute } from "./mock-answer.js";
import { mockAwsCredentials } from "./mock-bedrock-auth.js";
import { type MockLlmServer, startMockLlmServer } from "./start-mock-llm-server.js";

/** `createLanguageModel` given the `aws-bedrock` adapter, as the runtime of a Bedrock project gets it. */
const createLanguageModel: typeof createAnyLanguageModel = (provider, options, dependencies) =>
  createAnyLanguageModel(provider, options, { ...dependencies, providers: [awsBedrock] });

const messages: ChatMessage[] = [{ role: "user", parts: [{ type: "text", text: "Which is larger?" }] }];
const reasoning = "Compare 9.11 and 9.9: the tenths digit 9 beats 1.";
const text = '{"larger": 9.9}';

const cases: { route: MockRoute; provider: string; options: (server: MockLlmServer) => object }[] = [
  { route: "openai", provider: "openai-generic", options: (s) => ({ base_url: s.baseUrls.openai }) },
  {
    route: "responses",
    provider: "openai-responses",
    options: (s) => ({ base_url: s.baseUrls.responses, api_key: "k-1234" }),
  },
  {
    route: "anthropic",
    provider: "anthropic",
    options: (s) => ({ base_url: s.baseUrls.anthropic, api_key: "k-1234" }),
  },
  {
    route: "gemini",
    provider: "google-ai",
    options: (s) => ({ base_url: s.baseUrls.gemini, api_key: "k-1234" }),
  },
  {
    route: "bedrock",
    provider: "aws-bedrock",
    options: (s) => ({
      endpoint_url: s.baseUrls.bedrock,
      region: "us-east-1",
      access_key_id: mockAwsCredentials.accessKeyId,
      secret_access_key: mockAwsCredentials.secretAccessKey,
    }),
  },
];

let server: MockLlmServer;
beforeAll(async () => {
  server = await startMockLlmServer();
});
afterAll(async () => {
  await server.close();
});

const usage = {
  inputTokens: 120,
  outputTokens: 40,
  cachedInputTokens: 100,
  cacheWriteInputTokens: 6,
  reasoningTokens: 30,
};

for (const { route, provider, options } of cases) {
  describe(`${provider} reasoning`, () => {
    const model = () => createLanguageModel(provider, { model: "m", ...options(server) }, { fetch });

    it("reads a whole answer's reasoning apart from its text", async () => {
      server.scriptFor(route, answer(text, { reasoning, usage }));
      const result = await model().generate(messages);
      expect(result.text).toBe(text);
      expect(result.reasoning).toBe(reasoning);
      expect(result.usage.inputTokens).toBe(120);
      expect(result.usage.outputTokens).toBe(40);
      expect(result.usage.cachedInputTokens).toBe(100);
    });

    it("streams reasoning deltas before the text deltas", async () => {
      server.scriptFor(route, answer(text, { reasoning, usage, chunkSize: 7 }));
      const events: ModelStreamEvent[] = [];
      for await (const event of model().stream(messages)) events.push(event);
      const deltas = events.filter(
        (event) => event.type === "reasoning-delta" || event.type === "text-delta",
      );
      const reasoningDeltas = deltas.flatMap((event) =>
        event.type === "reasoning-delta" ? [event.text] : [],
      );
      expect(reasoningDeltas.length).toBe(Math.ceil(reasoning.length / 7));
      expect(reasoningDeltas.join("")).toBe(reasoning);
      expect(deltas.flatMap((event) => (event.type === "text-delta" ? [event.text] : [])).join("")).toBe(
        text,
      );
      const firstText = deltas.findIndex((event) => event.type === "text-delta");
      expect(deltas.slice(firstText).every((event) => event.type === "text-delta")).toBe(true);
      const finish = events.at(-1);
      expect(finish?.type === "finish" ? finish.usage : undefined).toMatchObject({
        inputTokens: 120,
        outputTokens: 40,
      });
    });
  });
}

describe("reasoning and cache-write tokens in usage", () => {
  const counted: Record<MockRoute, (keyof typeof usage)[]> = {
    openai: ["reasoningTokens"],
    responses: ["reasoningTokens"],
    anthropic: ["cacheWriteInputTokens"],
    gemini: ["reasoningTokens"],
    bedrock: ["cacheWriteInputTokens"],
    transcriptions: [],
  };
  for (const { route, provider, options } of cases) {
    it(`${provider} reports ${counted[route].join(", ")} where its wire format has them`, async () => {
      server.scriptFor(route, answer(text, { reasoning, usage }));
      const result = await createLanguageModel(
        provider,
        { model: "m", ...options(server) },
        { fetch },
      ).generate(messages);
      for (const field of counted[route]) expect(result.usage[field], field).toBe(usage[field]);
    });
  }
});
