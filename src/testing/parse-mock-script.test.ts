import { describe, expect, it } from "vitest";
import { MockScriptError, parseMockScript } from "./parse-mock-script.js";

describe("parseMockScript", () => {
  it("reads an array as the shared queue: strings are answer texts, objects carry options", () => {
    expect(parseMockScript('["hello", {"json": {"a": 1}, "chunkSize": 3}]')).toEqual({
      answers: [{ text: "hello" }, { text: '{\n  "a": 1\n}', chunkSize: 3 }],
      routes: {},
    });
  });

  it("reads per-route queues, a default answer and every kind of fault", () => {
    const script = parseMockScript(
      JSON.stringify({
        answers: [
          { fault: { type: "http-error", status: 429, retryAfterSeconds: 1 } },
          { text: "cut", fault: { type: "reset", afterChunks: 2 } },
          { text: "x", fault: { type: "malformed" } },
          { fault: { type: "hang" } },
          { text: "slow", headersDelayMs: 5, firstTokenDelayMs: 10, chunkDelayMs: 1, finishReason: "length" },
        ],
        routes: { anthropic: ["from claude"] },
        default: { text: "fallback", usage: { inputTokens: 3, outputTokens: 1 }, model: "m" },
      }),
    );
    expect(script.answers.map((answer) => answer.fault?.type ?? answer.finishReason)).toEqual([
      "http-error",
      "reset",
      "malformed",
      "hang",
      "length",
    ]);
    expect(script.answers[2]?.fault).toEqual({ type: "malformed", afterChunks: 0 });
    expect(script.routes).toEqual({ anthropic: [{ text: "from claude" }] });
    expect(script.defaultAnswer).toEqual({
      text: "fallback",
      usage: { inputTokens: 3, outputTokens: 1 },
      model: "m",
    });
  });

  it.each([
    ["{", "(file): not valid JSON"],
    [
      "42",
      '(file): expected a JSON array of answers, or an object with "answers", "routes", "default", got 42',
    ],
    ['{"answer": []}', "(file).answer: unknown field; the fields are answers, routes, default"],
    ['[{"txt": "a"}]', "answers[0].txt: unknown field; the fields are text, json, reasoning, chunks"],
    ['[{"text": "a", "json": 1}]', 'answers[0]: give "text" or "json", not both'],
    ['[{"chunkSize": 0}]', "answers[0].chunkSize: expected a whole number of at least 1, got 0"],
    [
      '[{"fault": {"type": "http-error", "status": 200}}]',
      "answers[0].fault.status: expected a whole number of at least 400, got 200",
    ],
    [
      '[{"fault": {"type": "timeout"}}]',
      'answers[0].fault.type: expected "http-error", "reset", "malformed" or "hang", got "timeout"',
    ],
    [
      '{"routes": {"claude": []}}',
      "routes.claude: unknown field; the fields are openai, responses, anthropic, gemini, bedrock",
    ],
    [
      '[{"finishReason": "max_tokens"}]',
      'answers[0].finishReason: expected "stop" or "length", got "max_tokens"',
    ],
    [
      '[{"toolCalls": {"name": "P"}}]',
      'answers[0].toolCalls: expected an array of tool calls, got {"name":"P"}',
    ],
    ['[{"toolCalls": [{"arguments": {}}]}]', "answers[0].toolCalls[0].name: expected a string, got nothing"],
    ['[{"toolCalls": [{"name": "P", "args": {}}]}]', "answers[0].toolCalls[0].args: unknown field"],
  ])("refuses %s, naming the field", (text, message) => {
    expect(() => parseMockScript(text)).toThrow(MockScriptError);
    expect(() => parseMockScript(text)).toThrow(message);
  });

  const deep = (depth: number): string => `${"[".repeat(depth)}${"]".repeat(depth)}`;

  it.each([
    [
      "a 100k-deep answer",
      deep(100_000),
      "answers[0]: expected an answer",
      "an array nested more than 20 levels deep",
    ],
    [
      'a 100k-deep "json" answer',
      `[{"json": ${deep(100_000)}}]`,
      "answers[0].json: nested more than 1000 levels deep",
      'give the answer as "text"',
    ],
    [
      "100k-deep tool call arguments",
      `[{"toolCalls": [{"name": "P", "arguments": ${deep(100_000)}}]}]`,
      "answers[0].toolCalls[0].arguments: nested more than 1000 levels deep",
      '"text"',
    ],
    ["a 100k-deep fault", `[{"fault": ${deep(100_000)}}]`, "answers[0].fault: expected a fault", "nested"],
  ])("refuses %s with a clear error, not a stack overflow", (_label, text, where, how) => {
    const failure = (() => {
      try {
        parseMockScript(text);
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(MockScriptError);
    expect((failure as Error).message).toContain(where);
    expect((failure as Error).message).toContain(how);
  });

  it("serves JSON nested up to the limit, and shows long values cut", () => {
    expect(parseMockScript(`[{"json": ${deep(1000)}}]`).answers[0]?.text?.length).toBeGreaterThan(2000);
    expect(() => parseMockScript(`[{"finishReason": "${"x".repeat(500)}"}]`)).toThrow(
      `got "${"x".repeat(199)}…`,
    );
  });

  it("reads tool calls, arguments as a JSON value or as text", () => {
    const script = parseMockScript(
      '[{"toolCalls": [{"name": "Person", "arguments": {"name": "Ada"}, "id": "call_1"}, {"name": "Person", "arguments": "{\\"name\\": \\"Bo"}]}]',
    );
    expect(script.answers[0]?.toolCalls).toEqual([
      { name: "Person", arguments: '{"name":"Ada"}', id: "call_1" },
      { name: "Person", arguments: '{"name": "Bo' },
    ]);
  });
});
