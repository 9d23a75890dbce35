/**
 * The request bodies of the tool and native output modes, derived from the IR, against recorded
 * fixtures (test/fixtures/output-modes/<provider>.json: one body per function and mode). Native mode
 * sends OpenAI's `response_format` json_schema with `strict` (Responses: `text.format`), Gemini's
 * `responseSchema`, and Anthropic's (and Bedrock's) forced tool; `ctx.output_format` is left out of
 * those prompts. Then the answers: parsed by the Schema-Aligned Parser, a root that is not an object
 * unwrapped from `{"value": …}`, and a cut answer repaired, through the mock server.
 *
 * `UPDATE_EXPECT=1` rewrites the fixtures from the code (review the diff before committing).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awsBedrock } from "../src/aws-bedrock/index.js";
import type { Ir } from "../src/ir/index.js";
import { compile } from "../src/language/index.js";
import { Collector, type OutputMode, SaplingRuntime } from "../src/runtime/index.js";
import {
  answer,
  cutByLength,
  type MockLlmServer,
  mockAwsCredentials,
  startMockLlmServer,
  toolCallAnswer,
} from "../src/testing/index.js";

const folder = resolve(import.meta.dirname, "fixtures", "output-modes");
const update = process.env.UPDATE_EXPECT === "1";

const source = `
enum Role {
  ENGINEER @description("builds things")
  MANAGER
}

class Person {
  name string @description("the full name")
  age int?
  role Role
  @@description("A person named in the text")
}

class Company {
  name string
  employees int?
  @@alias("Organization")
}

client<llm> OpenAi {
  provider openai
  options { model "gpt-4o-mini" base_url env.OPENAI_URL api_key "sk-test" temperature 0 }
}

client<llm> Responses {
  provider openai-responses
  options { model "gpt-4.1-mini" base_url env.OPENAI_URL api_key "sk-test" }
}

client<llm> Claude {
  provider anthropic
  options { model "claude-3-5-haiku-latest" base_url env.ANTHROPIC_URL api_key "sk-ant-test" }
}

client<llm> Gemini {
  provider google-ai
  options {
    model "gemini-2.5-flash"
    base_url env.GEMINI_URL
    api_key "google-test"
    generationConfig { temperature 0 }
  }
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

function ExtractPerson(text: string) -> Person {
  client OpenAi
  prompt #"
    Extract the person from: {{ text }}
    {{ ctx.output_format }}
  "#
}

function ListPeople(text: string) -> Person[] {
  client OpenAi
  prompt #"
    List the people in: {{ text }}
    {{ ctx.output_format }}
  "#
}

class Section {
  title string
  children Section[]
}

function Outline(text: string) -> Section {
  client OpenAi
  prompt #"
    Outline: {{ text }}
    {{ ctx.output_format }}
  "#
}

function Extract(text: string) -> Person | Company {
  client OpenAi
  prompt #"
    Extract the entity from: {{ text }}
    {{ ctx.output_format }}
  "#
}
`;

const clients = {
  openai: "OpenAi",
  "openai-responses": "Responses",
  anthropic: "Claude",
  "google-ai": "Gemini",
  "aws-bedrock": "Bedrock",
} as const;

const cases: { functionName: string; mode: OutputMode }[] = [
  { functionName: "ExtractPerson", mode: "native" },
  { functionName: "ListPeople", mode: "native" },
  { functionName: "Extract", mode: "tools" },
];

let server: MockLlmServer;
let ir: Ir;

beforeAll(async () => {
  server = await startMockLlmServer();
  const compiled = compile({ "main.baml": source });
  if (!compiled.ir) throw new Error(`fixture does not compile: ${JSON.stringify(compiled.diagnostics)}`);
  ir = compiled.ir;
});
afterAll(async () => {
  await server.close();
});

function runtime(): SaplingRuntime {
  return SaplingRuntime.fromIr(ir, {
    providers: [awsBedrock],
    env: {
      OPENAI_URL: server.baseUrls.openai,
      ANTHROPIC_URL: server.baseUrls.anthropic,
      GEMINI_URL: server.baseUrls.gemini,
      BEDROCK_URL: server.baseUrls.bedrock,
      AWS_ID: mockAwsCredentials.accessKeyId,
      AWS_SECRET: mockAwsCredentials.secretAccessKey,
    },
    readTextFile: null,
    sleep: async () => {},
  });
}

describe.each(Object.entries(clients))("request bodies for %s", (provider, client) => {
  it("match the recorded fixture for each function and output mode", async () => {
    const bodies: Record<string, unknown> = {};
    for (const { functionName, mode } of cases) {
      const request = await runtime().buildRequest(
        functionName,
        { text: "Ada Lovelace, engineer" },
        { stream: false },
        { client, outputMode: mode },
      );
      bodies[`${functionName} (${mode})`] = request.body;
    }
    const path = join(folder, `${provider}.json`);
    if (update || !existsSync(path)) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(path, `${JSON.stringify(bodies, null, 2)}\n`);
    }
    expect(bodies).toEqual(JSON.parse(readFileSync(path, "utf8")));
  });

  it("leave ctx.output_format out of the prompt only when the provider enforces the schema", async () => {
    const prompt = async (mode: OutputMode) =>
      JSON.stringify(
        (
          await runtime().buildRequest(
            "ExtractPerson",
            { text: "Ada" },
            { stream: false },
            { client, outputMode: mode },
          )
        ).body,
      );
    expect(await prompt("prompt")).toContain("Answer in JSON using this schema");
    expect(await prompt("tools")).toContain("Answer in JSON using this schema");
    expect(await prompt("native")).not.toContain("Answer in JSON using this schema");
  });
});

describe("a recursive class", () => {
  it("is an object at the root of a tool and of an enforced schema, its definition kept for the inner references", async () => {
    const body = async (client: string, outputMode: OutputMode) =>
      (await runtime().buildRequest("Outline", { text: "x" }, { stream: false }, { client, outputMode }))
        .body;
    const tool = ((await body("Claude", "tools")).tools as { input_schema: Record<string, unknown> }[])[0];
    expect(tool?.input_schema).toMatchObject({
      type: "object",
      properties: { children: { type: "array", items: { $ref: "#/$defs/Section" } } },
      $defs: { Section: { type: "object" } },
    });
    expect(tool?.input_schema.$ref).toBeUndefined();
    const format = (await body("OpenAi", "native")).response_format as {
      json_schema: { name: string; schema: unknown };
    };
    expect(format.json_schema.name).toBe("Section");
    expect(format.json_schema.schema).toMatchObject({ type: "object", required: ["title", "children"] });
    // Gemini cannot inline a recursive schema: it is sent as JSON Schema.
    const gemini = (await body("Gemini", "native")).generationConfig as Record<string, unknown>;
    expect(gemini.responseSchema).toBeUndefined();
    expect(gemini.responseJsonSchema).toMatchObject({ type: "object" });
  });

  it("parses a nested answer in tool mode", async () => {
    const tree = { title: "a", children: [{ title: "b", children: [] }] };
    server.scriptFor("anthropic", toolCallAnswer({ name: "Section", arguments: JSON.stringify(tree) }));
    expect(await runtime().call("Outline", { text: "x" }, { client: "Claude", outputMode: "tools" })).toEqual(
      tree,
    );
  });
});

describe("native structured output: the answer is still parsed by SAP", () => {
  const native = { outputMode: "native" } as const;
  const ada = { name: "Ada Lovelace", age: 36, role: "ENGINEER" };

  it("OpenAI: the strict json_schema answer, repaired when it is not exact", async () => {
    server.scriptFor("openai", answer('{"name": "Ada Lovelace", "age": "36", "role": "engineer"}'));
    const collector = new Collector();
    expect(
      await runtime().call("ExtractPerson", { text: "Ada" }, { ...native, client: "OpenAi", collector }),
    ).toEqual(ada);
    expect(collector.last?.repairs.map((flag) => flag.kind)).toEqual(
      expect.arrayContaining(["StringToInt", "EnumCaseFold"]),
    );
  });

  it("Gemini: a list return type, sent wrapped as {value: …} and unwrapped after parsing", async () => {
    server.scriptFor("gemini", answer(`{"value": [${JSON.stringify(ada)}]}`, { chunkSize: 7 }));
    const stream = runtime().stream("ListPeople", { text: "Ada" }, { ...native, client: "Gemini" });
    const partials: unknown[] = [];
    for await (const partial of stream) partials.push(partial);
    expect(await stream.getFinalResponse()).toEqual([ada]);
    expect(partials.every(Array.isArray)).toBe(true);
    expect(partials).toContainEqual([{ name: "Ada Lovelace", age: null, role: null }]);
  });

  it("Gemini: a bare list where the wrapper was asked for still parses", async () => {
    server.scriptFor("gemini", answer(`[${JSON.stringify(ada)}]`));
    expect(await runtime().call("ListPeople", { text: "Ada" }, { ...native, client: "Gemini" })).toEqual([
      ada,
    ]);
  });

  it("Anthropic: the forced tool's input is the answer", async () => {
    server.scriptFor("anthropic", toolCallAnswer({ name: "Person", arguments: JSON.stringify(ada) }));
    expect(await runtime().call("ExtractPerson", { text: "Ada" }, { ...native, client: "Claude" })).toEqual(
      ada,
    );
  });

  it("Anthropic: a wrapped list through the forced tool, streamed", async () => {
    server.scriptFor(
      "anthropic",
      toolCallAnswer(
        { name: "ListPeople", arguments: JSON.stringify({ value: [ada, ada] }) },
        { chunkSize: 9 },
      ),
    );
    const stream = runtime().stream("ListPeople", { text: "Ada" }, { ...native, client: "Claude" });
    for await (const _partial of stream) {
      // drain
    }
    expect(await stream.getFinalResponse()).toEqual([ada, ada]);
  });

  it("a cut answer that never wrote a required field is a clear error with the raw text", async () => {
    server.scriptFor("openai", cutByLength('{"name": "Ada Love'));
    const collector = new Collector();
    const error = await runtime()
      .call("ExtractPerson", { text: "Ada" }, { ...native, client: "OpenAi", collector })
      .catch((caught: unknown) => caught);
    // `role` is required and never written: a clear error with the raw answer, not a made-up value.
    expect(error).toMatchObject({ code: "VALIDATION", rawOutput: '{"name": "Ada Love' });
  });
});
