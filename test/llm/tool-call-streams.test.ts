/**
 * Tool calls at the model level, on hand-written wire transcripts replayed through a fake `fetch`: the
 * pieces a stream yields join into the calls of the whole answer whatever the byte chunking, and the
 * two paths that turn a whole answer into a stream (`supports_streaming false`, a server that ignores
 * `stream: true`) deliver the calls as pieces too.
 */
import { describe, expect, it } from "vitest";
import { createLanguageModel } from "../../src/llm/create-language-model.js";
import { type ModelStreamEvent, type ToolCall, ToolCallAccumulator } from "../../src/llm/index.js";
import { createReplayFetch, randomSplitPoints } from "../../src/testing/index.js";
import type { ChatMessage } from "../../src/util/index.js";

const messages: ChatMessage[] = [{ role: "user", parts: [{ type: "text", text: "Extract" }] }];
const expected: ToolCall[] = [
  { id: "call_1", name: "Person", arguments: '{"name": "Ada", "age": 36}' },
  { id: "call_2", name: "Organization", arguments: '{"name": "Acme"}' },
];

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const openAiStream = [
  chunk({ role: "assistant", content: null }),
  chunk({
    tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "Person", arguments: "" } }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"name": "Ada", ' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"age": 36}' } }] }),
  chunk({
    tool_calls: [
      { index: 1, id: "call_2", type: "function", function: { name: "Organization", arguments: "" } },
    ],
  }),
  chunk({ tool_calls: [{ index: 1, function: { arguments: '{"name": "Acme"}' } }] }),
  chunk({}, "tool_calls"),
  "data: [DONE]\n\n",
].join("");

const anthropicEvent = (data: Record<string, unknown>) =>
  `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
const anthropicStream = [
  anthropicEvent({ type: "message_start", message: { model: "claude", usage: { input_tokens: 5 } } }),
  anthropicEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
  anthropicEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Calling." } }),
  anthropicEvent({ type: "content_block_stop", index: 0 }),
  anthropicEvent({
    type: "content_block_start",
    index: 1,
    content_block: { type: "tool_use", id: "call_1", name: "Person", input: {} },
  }),
  anthropicEvent({
    type: "content_block_delta",
    index: 1,
    delta: { type: "input_json_delta", partial_json: '{"name": "Ada", ' },
  }),
  anthropicEvent({
    type: "content_block_delta",
    index: 1,
    delta: { type: "input_json_delta", partial_json: '"age": 36}' },
  }),
  anthropicEvent({ type: "content_block_stop", index: 1 }),
  anthropicEvent({
    type: "content_block_start",
    index: 2,
    content_block: { type: "tool_use", id: "call_2", name: "Organization", input: {} },
  }),
  anthropicEvent({
    type: "content_block_delta",
    index: 2,
    delta: { type: "input_json_delta", partial_json: '{"name": "Acme"}' },
  }),
  anthropicEvent({ type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } }),
  anthropicEvent({ type: "message_stop" }),
].join("");

async function collect(events: AsyncIterable<ModelStreamEvent>) {
  const calls = new ToolCallAccumulator();
  let text = "";
  let finish: ModelStreamEvent | undefined;
  for await (const event of events) {
    if (event.type === "tool-call-delta") calls.push(event);
    if (event.type === "text-delta") text += event.text;
    if (event.type === "finish") finish = event;
  }
  return { calls: calls.calls(), text, finish };
}

describe.each([
  {
    provider: "openai",
    options: { model: "m", base_url: "http://llm.test/v1" },
    body: openAiStream,
    text: "",
  },
  {
    provider: "anthropic",
    options: { model: "claude", base_url: "http://llm.test" },
    body: anthropicStream,
    text: "Calling.",
  },
])("$provider tool-call streams", ({ provider, options, body, text }) => {
  it("join into the whole answer's calls, whatever the byte chunking", async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const fetch = createReplayFetch(() => ({
        headers: { "content-type": "text/event-stream" },
        body,
        splitAt: randomSplitPoints(body.length, seed, 5),
      }));
      const model = createLanguageModel(provider, { ...options, api_key: "k" }, { fetch });
      const result = await collect(model.stream(messages));
      expect(result.calls).toEqual(expected);
      expect(result.text).toBe(text);
      expect(result.finish).toMatchObject({ finishReason: "tool-calls" });
    }
  });
});

describe("whole answers delivered as streams", () => {
  const whole = JSON.stringify({
    id: "c",
    object: "chat.completion",
    model: "m",
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        message: {
          role: "assistant",
          content: null,
          tool_calls: expected.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: call.arguments },
          })),
        },
      },
    ],
  });
  const answerWhole = () => ({ headers: { "content-type": "application/json" }, body: whole });

  it("supports_streaming false: the calls as pieces of a one-request stream", async () => {
    const model = createLanguageModel(
      "openai",
      { model: "m", base_url: "http://llm.test/v1", api_key: "k", supports_streaming: false },
      { fetch: createReplayFetch(answerWhole) },
    );
    expect((await collect(model.stream(messages))).calls).toEqual(expected);
    expect((await model.generate(messages)).toolCalls).toEqual(expected);
  });

  it("a server that ignores stream: true and answers JSON", async () => {
    const model = createLanguageModel(
      "openai-generic",
      { model: "m", base_url: "http://llm.test/v1" },
      { fetch: createReplayFetch(answerWhole) },
    );
    expect((await collect(model.stream(messages))).calls).toEqual(expected);
  });
});
