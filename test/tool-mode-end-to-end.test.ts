/**
 * Tool mode end to end, for every provider with native tool calls: a BAML project compiled to IR, its
 * return type's classes sent as tools in each provider's format, the mock server answering with tool
 * calls in that format (whole and streamed), and the arguments parsed by the Schema-Aligned Parser.
 * For each provider: a single call, several calls (list items, or first call + the rest recorded in the
 * Collector), streamed arguments (typed partials), malformed and cut arguments (repaired), a plain-text
 * answer in tool mode, and `b.request` showing the tools.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { awsBedrock } from "../src/aws-bedrock/index.js";
import type { Ir } from "../src/ir/index.js";
import { compile } from "../src/language/index.js";
import { Collector, SaplingRuntime } from "../src/runtime/index.js";
import {
  answer,
  createTestServiceAccount,
  type MockLlmServer,
  type MockRoute,
  mockAwsCredentials,
  startMockLlmServer,
  type TestServiceAccount,
  toolCallAnswer,
} from "../src/testing/index.js";
import { vertexAi } from "../src/vertex-ai/index.js";

const source = `
class Person {
  name string @description("the full name")
  age int
  @@description("A person named in the text")
}

class Company {
  name string
  employees int?
  @@alias("Organization")
}

client<llm> OpenAi {
  provider openai
  options { model "gpt-4o-mini" base_url env.OPENAI_URL api_key "sk-test" }
}

client<llm> Responses {
  provider openai-responses
  options { model "gpt-4.1-mini" base_url env.OPENAI_URL api_key "sk-test" }
}

client<llm> Azure {
  provider azure-openai
  options { base_url env.OPENAI_URL api_key "azure-test" api_version "2024-10-21" }
}

client<llm> Claude {
  provider anthropic
  options { model "claude-3-5-haiku-latest" base_url env.ANTHROPIC_URL api_key "sk-ant-test" }
}

client<llm> Gemini {
  provider google-ai
  options { model "gemini-2.5-flash" base_url env.GEMINI_URL api_key "google-test" }
}

client<llm> VertexGemini {
  provider vertex-ai
  options { model "gemini-2.5-flash" location "us-central1" base_url env.VERTEX_URL credentials env.VERTEX_KEY }
}

client<llm> VertexClaude {
  provider vertex-ai
  options { model "claude-sonnet-4@20250514" location "us-east5" base_url env.VERTEX_CLAUDE_URL credentials env.VERTEX_KEY }
}

client<llm> Bedrock {
  provider aws-bedrock
  options {
    model "anthropic.claude-3-5-haiku-20241022-v1:0"
    region "us-east-1"
    endpoint_url env.BEDROCK_URL
    access_key_id env.AWS_ID
    secret_access_key env.AWS_SECRET
  }
}

client<llm> ToolsByDefault {
  provider openai
  options { model "gpt-4o-mini" base_url env.OPENAI_URL api_key "sk-test" output_mode "tools" }
}

function Extract(text: string) -> Person | Company {
  client OpenAi
  prompt #"
    Extract the entity from: {{ text }}
    {{ ctx.output_format }}
  "#
}

function ExtractAll(text: string) -> (Person | Company)[] {
  client OpenAi
  prompt #"
    Extract every entity from: {{ text }}
    {{ ctx.output_format }}
  "#
}

function ExtractCompany(text: string) -> Company {
  client OpenAi
  prompt #"
    Extract the company from: {{ text }}
    {{ ctx.output_format }}
  "#
}

function CountWords(text: string) -> int {
  client OpenAi
  prompt #"Count the words of {{ text }}"#
}
`;

/** A provider under test: its client, the mock route it speaks, and where its request keeps tool names. */
interface ProviderCase {
  client: string;
  route: MockRoute;
  toolNames: (body: Record<string, unknown>) => string[];
}

const names = (list: unknown, pick: (item: Record<string, unknown>) => unknown): string[] =>
  (list as Record<string, unknown>[]).map((item) => String(pick(item)));
const openAiNames = (body: Record<string, unknown>) =>
  names(body.tools, (tool) => (tool.function as Record<string, unknown>).name);
const anthropicNames = (body: Record<string, unknown>) => names(body.tools, (tool) => tool.name);
const geminiNames = (body: Record<string, unknown>) =>
  names(
    ((body.tools as Record<string, unknown>[])[0] as Record<string, unknown>).functionDeclarations,
    (declaration) => declaration.name,
  );

const providers: ProviderCase[] = [
  { client: "OpenAi", route: "openai", toolNames: openAiNames },
  { client: "Responses", route: "responses", toolNames: anthropicNames },
  { client: "Azure", route: "openai", toolNames: openAiNames },
  { client: "Claude", route: "anthropic", toolNames: anthropicNames },
  { client: "Gemini", route: "gemini", toolNames: geminiNames },
  { client: "VertexGemini", route: "gemini", toolNames: geminiNames },
  { client: "VertexClaude", route: "anthropic", toolNames: anthropicNames },
  {
    client: "Bedrock",
    route: "bedrock",
    toolNames: (body) =>
      names(
        (body.toolConfig as Record<string, unknown>).tools,
        (tool) => (tool.toolSpec as Record<string, unknown>).name,
      ),
  },
];

const ADA = '{"name": "Ada Lovelace", "age": 36}';
const ACME = '{"name": "Acme", "employees": 12}';

let server: MockLlmServer;
let ir: Ir;
let account: TestServiceAccount;

beforeAll(async () => {
  server = await startMockLlmServer();
  const compiled = compile({ "main.baml": source });
  if (!compiled.ir) throw new Error(`fixture does not compile: ${JSON.stringify(compiled.diagnostics)}`);
  ir = compiled.ir;
  account = await createTestServiceAccount({ tokenUri: server.tokenEndpoint.tokenUri, projectId: "tools" });
  server.tokenEndpoint.trust(account.publicKey);
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function runtime(logger?: (level: string, message: string) => void): SaplingRuntime {
  return SaplingRuntime.fromIr(ir, {
    providers: [awsBedrock, vertexAi],
    env: {
      OPENAI_URL: server.baseUrls.openai,
      ANTHROPIC_URL: server.baseUrls.anthropic,
      GEMINI_URL: server.baseUrls.gemini,
      VERTEX_URL: server.vertexModelsUrl("tools", "us-central1"),
      VERTEX_CLAUDE_URL: server.vertexModelsUrl("tools", "us-east5", "anthropic"),
      VERTEX_KEY: JSON.stringify(account.keyFile),
      BEDROCK_URL: server.baseUrls.bedrock,
      AWS_ID: mockAwsCredentials.accessKeyId,
      AWS_SECRET: mockAwsCredentials.secretAccessKey,
    },
    readTextFile: null,
    sleep: async () => {},
    ...(logger ? { logger } : {}),
  });
}

const tools = { outputMode: "tools" } as const;

describe.each(providers)("tool mode with $client", ({ client, route, toolNames }) => {
  it("sends each class of the return type as a tool and parses the chosen tool's arguments", async () => {
    server.scriptFor(route, toolCallAnswer({ name: "Organization", arguments: ACME }));
    const collector = new Collector();
    const value = await runtime().call("Extract", { text: "Acme" }, { ...tools, client, collector });
    expect(value).toEqual({ name: "Acme", employees: 12 });
    const body = server.requests[0]?.body ?? {};
    expect(toolNames(body)).toEqual(["Person", "Organization"]);
    expect(JSON.stringify(body)).toContain("A person named in the text");
    expect(JSON.stringify(body)).toContain("the full name");
    expect(collector.last?.toolCalls).toMatchObject([{ name: "Organization", used: true }]);
    // Formats that carry arguments as a JSON value (Anthropic, Gemini, Bedrock) re-serialize them.
    expect(JSON.parse(collector.last?.toolCalls[0]?.arguments ?? "")).toEqual(JSON.parse(ACME));
    expect(collector.last?.selectedCall?.toolCalls).toHaveLength(1);
  });

  it("makes each of several calls an item when the return type is a list of the union", async () => {
    server.scriptFor(
      route,
      toolCallAnswer([
        { name: "Person", arguments: ADA },
        { name: "Organization", arguments: ACME },
      ]),
    );
    const value = await runtime().call("ExtractAll", { text: "Ada at Acme" }, { ...tools, client });
    expect(value).toEqual([
      { name: "Ada Lovelace", age: 36 },
      { name: "Acme", employees: 12 },
    ]);
  });

  it("returns the first of several calls otherwise, and records the others as unused", async () => {
    server.scriptFor(
      route,
      toolCallAnswer([
        { name: "Person", arguments: ADA },
        { name: "Organization", arguments: ACME },
      ]),
    );
    const collector = new Collector();
    const warnings: string[] = [];
    const sapling = runtime((level, message) => {
      if (level === "warn") warnings.push(message);
    });
    const value = await sapling.call("Extract", { text: "Ada at Acme" }, { ...tools, client, collector });
    expect(value).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(collector.last?.toolCalls.map((call) => [call.name, call.used])).toEqual([
      ["Person", true],
      ["Organization", false],
    ]);
    expect(warnings.join("\n")).toContain("Organization");
  });

  it("streams typed partials from streamed arguments", async () => {
    server.scriptFor(route, toolCallAnswer({ name: "Person", arguments: ADA }, { chunkSize: 5 }));
    const stream = runtime().stream("Extract", { text: "Ada" }, { ...tools, client });
    const partials: unknown[] = [];
    for await (const partial of stream) partials.push(partial);
    expect(await stream.getFinalResponse()).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(server.requests[0]?.stream).toBe(true);
    if (route === "gemini") {
      // Gemini streams each call whole, in one event.
      expect(partials).toEqual([{ name: "Ada Lovelace", age: 36 }]);
    } else {
      expect(partials.length).toBeGreaterThan(2);
      expect(partials).toContainEqual({ name: "Ada Lovelace", age: null });
      expect(partials.some((partial) => /^Ada L/.test(String((partial as { name: unknown }).name)))).toBe(
        true,
      );
    }
  });

  it("streams several calls as list items", async () => {
    server.scriptFor(
      route,
      toolCallAnswer(
        [
          { name: "Person", arguments: ADA },
          { name: "Organization", arguments: ACME },
        ],
        { chunkSize: 6 },
      ),
    );
    const stream = runtime().stream("ExtractAll", { text: "Ada at Acme" }, { ...tools, client });
    const partials: unknown[] = [];
    for await (const partial of stream) partials.push(partial);
    expect(await stream.getFinalResponse()).toEqual([
      { name: "Ada Lovelace", age: 36 },
      { name: "Acme", employees: 12 },
    ]);
    expect(partials.at(-1)).toEqual([
      { name: "Ada Lovelace", age: 36 },
      { name: "Acme", employees: 12 },
    ]);
  });

  it("repairs malformed arguments, whole and streamed", async () => {
    const malformed = '{name: \'Ada Lovelace\', "age": "36",}';
    server.scriptFor(
      route,
      toolCallAnswer({ name: "Person", arguments: malformed }),
      toolCallAnswer({ name: "Person", arguments: malformed }, { chunkSize: 3 }),
    );
    const collector = new Collector();
    const sapling = runtime();
    expect(await sapling.call("Extract", { text: "Ada" }, { ...tools, client, collector })).toEqual({
      name: "Ada Lovelace",
      age: 36,
    });
    expect(collector.last?.repairs.map((flag) => flag.kind)).toContain("StringToInt");
    const stream = sapling.stream("Extract", { text: "Ada" }, { ...tools, client });
    for await (const _partial of stream) {
      // drain
    }
    expect(await stream.getFinalResponse()).toEqual({ name: "Ada Lovelace", age: 36 });
  });

  it("keeps what cut arguments hold, and marks the answer truncated", async () => {
    server.scriptFor(
      route,
      toolCallAnswer({ name: "Organization", arguments: '{"name": "Acme Wid' }, { finishReason: "length" }),
    );
    const collector = new Collector();
    const value = await runtime().call("ExtractCompany", { text: "Acme" }, { ...tools, client, collector });
    expect(value).toEqual({ name: "Acme Wid", employees: null });
    expect(collector.last?.truncated).toBe(true);
    expect(collector.last?.incompleteFields).toContain("$.name");
  });

  it("still parses a plain-text answer", async () => {
    server.scriptFor(route, answer(`Here you go:\n${ADA}`));
    expect(await runtime().call("Extract", { text: "Ada" }, { ...tools, client })).toEqual({
      name: "Ada Lovelace",
      age: 36,
    });
  });

  it("shows the tools in b.request", async () => {
    const request = await runtime().buildRequest(
      "Extract",
      { text: "Ada" },
      { stream: false },
      { ...tools, client },
    );
    expect(toolNames(request.body)).toEqual(["Person", "Organization"]);
  });
});

describe("tool mode through the runtime", () => {
  it("is a client option too, and the call option overrides it", async () => {
    server.scriptFor("openai", toolCallAnswer({ name: "Person", arguments: ADA }), answer(ADA));
    const sapling = runtime();
    expect(await sapling.call("Extract", { text: "Ada" }, { client: "ToolsByDefault" })).toEqual({
      name: "Ada Lovelace",
      age: 36,
    });
    expect(server.requests[0]?.body.tool_choice).toBe("required");
    expect(server.requests[0]?.body.output_mode).toBeUndefined();
    await sapling.call("Extract", { text: "Ada" }, { client: "ToolsByDefault", outputMode: "prompt" });
    expect(server.requests[1]?.body.tools).toBeUndefined();
  });

  it("forces the one tool when the return type has one class", async () => {
    server.scriptFor("anthropic", toolCallAnswer({ name: "Organization", arguments: ACME }));
    await runtime().call("ExtractCompany", { text: "Acme" }, { ...tools, client: "Claude" });
    expect(server.requests[0]?.body.tool_choice).toEqual({ type: "tool", name: "Organization" });
  });

  it("fails clearly for a tool the model invented, with its arguments as the raw output", async () => {
    server.scriptFor("openai", toolCallAnswer({ name: "Weather", arguments: '{"city": "Paris"}' }));
    const error = await runtime()
      .call("Extract", { text: "Ada" }, { ...tools, client: "OpenAi" })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "VALIDATION", rawOutput: '{"city": "Paris"}' });
    expect(String((error as Error).message)).toContain(
      '"Weather", which is not one of the tools sent (Person, Organization)',
    );
  });

  it("reads tool calls in prompt mode too (tools passed as options), instead of an empty answer", async () => {
    server.scriptFor("openai", toolCallAnswer({ name: "anything", arguments: ADA }));
    expect(await runtime().call("Extract", { text: "Ada" }, { client: "OpenAi" })).toEqual({
      name: "Ada Lovelace",
      age: 36,
    });
  });

  it("refuses tool mode for a return type without classes, before any request", async () => {
    await expect(
      runtime().call("CountWords", { text: "a b" }, { ...tools, client: "OpenAi" }),
    ).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining('output mode "tools" needs a class'),
    });
    expect(server.requests).toHaveLength(0);
  });
});
