import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { applyDelta } from "../../stream-client/index.js";
import {
  answer,
  createTestServiceAccount,
  cutByLength,
  type MockLlmServer,
  mockAwsCredentials,
  resetMidStream,
  startMockLlmServer,
} from "../../testing/index.js";
import { captureContext } from "../cli-context.js";
import { main } from "../main.js";

const source = `
class Person {
  name string
  age int
}

client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "mock-model"
    api_key env.MOCK_KEY
  }
}

client<llm> Other {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "other-model"
  }
}

function ExtractPerson(text: string) -> Person {
  client Mock
  prompt #"
    Extract: {{ text }}
    {{ ctx.output_format }}
  "#
}
`;

let server: MockLlmServer;
let root: string;

beforeAll(async () => {
  server = await startMockLlmServer();
  root = mkdtempSync(join(tmpdir(), "sapling-call-"));
  mkdirSync(join(root, "baml_src"));
  writeFileSync(join(root, "baml_src", "main.baml"), source);
  writeFileSync(join(root, "args.json"), '{"text": "Ada, 36"}');
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function context(stdin?: string) {
  return captureContext({
    cwd: root,
    env: { MOCK_URL: server.baseUrls.openai, MOCK_KEY: "sk-cli-key-123456" },
    ...(stdin !== undefined ? { stdin } : {}),
  });
}

describe("sapling call", () => {
  it("prints the parsed value as JSON", async () => {
    server.script(answer('```json\n{"name": "Ada", "age": 36}\n```'));
    const run = context();
    expect(await main(["call", "ExtractPerson", "--args", '{"text": "Ada, 36"}'], run)).toBe(0);
    expect(JSON.parse(run.output().stdout)).toEqual({ name: "Ada", age: 36 });
    expect(JSON.stringify(server.requests[0]?.body.messages)).toContain("Extract: Ada, 36");
  });

  it("prints a cut answer's value but says on stderr that it was cut, where, and how to refuse it", async () => {
    server.script(cutByLength('{"age": 36, "name": "Ada Lov'));
    const run = context();
    expect(await main(["call", "ExtractPerson", "--args", '{"text": "Ada"}'], run)).toBe(0);
    expect(JSON.parse(run.output().stdout)).toEqual({ name: "Ada Lov", age: 36 });
    expect(run.output().stderr).toMatch(
      new RegExp(
        `^${escapeRegExp(
          "warning: the answer was cut (finish reason length); incomplete: $.name.\n" +
            '  To make a cut answer fail, add finish_reason_deny_list ["length"] to the client\'s options;\n' +
            "  to fall back to the next client instead, also pass parseRecovery: { nextClient: true } in code.\n",
        )}ExtractPerson ok client=Mock model=mock-model latency=\\d+ms tokens=\\d+ in / \\d+ out cost=unknown repairs=\\d+\n$`,
      ),
    );
    server.script(answer('{"age": 36, "name": "Ada"}', { usage: { inputTokens: 40, outputTokens: 9 } }));
    const whole = context();
    expect(await main(["call", "ExtractPerson", "--args", '{"text": "Ada"}'], whole)).toBe(0);
    // The summary only, the same line the runtime logs at info and `sapling serve`'s access log ends with.
    expect(whole.output().stderr).toMatch(
      /^ExtractPerson ok client=Mock model=mock-model latency=\d+ms tokens=40 in \/ 9 out cost=unknown repairs=0\n$/,
    );
  });

  it("prints the rendered prompt and the raw answer with BAML_LOG=debug, keys redacted", async () => {
    server.script(answer('{"age": 36, "name": "Ada"}'));
    const run = captureContext({
      cwd: root,
      env: { MOCK_URL: server.baseUrls.openai, MOCK_KEY: "sk-cli-key-123456", BAML_LOG: "debug" },
    });
    expect(await main(["call", "ExtractPerson", "--args", '{"text": "Ada sk-cli-key-123456"}'], run)).toBe(0);
    const stderr = run.output().stderr;
    expect(stderr).toContain("[sapling debug] ExtractPerson: prompt for client Mock:\n");
    expect(stderr).toContain("Ada [REDACTED]");
    expect(stderr).toContain(
      '[sapling debug] ExtractPerson: raw answer from client Mock:\n{"age": 36, "name": "Ada"}',
    );
    expect(stderr).not.toContain("sk-cli-key-123456");
  });

  it("says what happened when a base_url variable is empty, and when a connection breaks mid-answer", async () => {
    const empty = captureContext({ cwd: root, env: { MOCK_URL: "", MOCK_KEY: "sk-cli-key-123456" } });
    expect(await main(["call", "ExtractPerson", "--args", '{"text": "Ada"}'], empty)).toBe(1);
    expect(empty.output().stderr).toContain(
      "reads env.MOCK_URL (option base_url), but MOCK_URL is set to an empty string",
    );
    expect(empty.output().stderr).not.toContain("Failed to parse URL");
    server.script(resetMidStream('{"name": "Ada", "age": 36}', 1));
    const reset = context();
    expect(
      await main(
        ["call", "ExtractPerson", "--args", '{"text": "Ada"}', "--stream", "--client", "Other"],
        reset,
      ),
    ).toBe(1);
    expect(reset.output().stderr).toContain("broke after the server had started answering");
    expect(reset.output().stderr).not.toContain("Check base_url");
  });

  it("streams partials as JSON lines, then the final value; reads @file arguments; honours --client", async () => {
    server.script(answer('{"name": "Ada Lovelace", "age": 36}', { chunkSize: 6 }));
    const run = context();
    expect(
      await main(["call", "ExtractPerson", "--args", "@args.json", "--stream", "--client", "Other"], run),
    ).toBe(0);
    const lines = run
      .output()
      .stdout.trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.at(-1)).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(server.requests[0]?.model).toBe("other-model");
  });

  it("prints only what changed with --stream --delta: about the answer's size, however many chunks", async () => {
    const name = "Ada Lovelace ".repeat(150).trim();
    const text = JSON.stringify({ name, age: 36 });
    server.script(answer(text, { chunkSize: 16 }));
    const run = context();
    expect(
      await main(
        ["call", "ExtractPerson", "--args", "@args.json", "--stream", "--delta", "--client", "Other"],
        run,
      ),
    ).toBe(0);
    const stdout = run.output().stdout;
    // 125 chunks: whole partials after each would print the name 125 times over.
    expect(stdout.length).toBeLessThan(3 * text.length);
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(Object.keys(lines.at(-1) ?? {})).toEqual(["final"]);
    let value: unknown;
    const cursor = {};
    for (const line of lines) {
      value = applyDelta(value, (line.delta ?? (line.final as { delta: unknown }).delta) as never, cursor);
    }
    expect(value).toEqual({ name, age: 36 });
    const misuse = context();
    expect(await main(["call", "ExtractPerson", "--delta"], misuse)).not.toBe(0);
    expect(misuse.output().stderr).toContain("--delta goes with --stream");
  });

  it("reads the client's variables from a .env file with --dotenv / --dotenv-path", async () => {
    const envFile = `MOCK_URL=${server.baseUrls.openai}\nMOCK_KEY="sk-from-dotenv-123456"\n`;
    writeFileSync(join(root, ".env"), envFile);
    writeFileSync(join(root, "staging.env"), envFile.replace("sk-from-dotenv", "sk-from-staging"));
    const bare = () => captureContext({ cwd: root, env: {} });
    server.script(answer('{"name": "Ada", "age": 36}'));
    expect(await main(["call", "ExtractPerson", "--dotenv", "--args", '{"text": "Ada"}'], bare())).toBe(0);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-from-dotenv-123456");
    server.script(answer('{"name": "Ada", "age": 36}'));
    const staging = ["call", "ExtractPerson", "--dotenv-path", "staging.env", "--args", '{"text": "Ada"}'];
    expect(await main(staging, bare())).toBe(0);
    expect(server.requests[1]?.headers.authorization).toBe("Bearer sk-from-staging-123456");
    // Without the flag the file is not read: the client's env.MOCK_URL is missing.
    const run = bare();
    expect(await main(["call", "ExtractPerson", "--args", '{"text": "Ada"}'], run)).toBe(1);
    expect(run.output().stderr).toContain("MOCK_URL");
  });

  it("reads arguments from standard input with --args -", async () => {
    server.script(answer('{"name": "Bo", "age": 5}'));
    const run = context('{"text": "Bo"}');
    expect(await main(["call", "ExtractPerson", "--args", "-"], run)).toBe(0);
    expect(JSON.parse(run.output().stdout)).toEqual({ name: "Bo", age: 5 });
  });

  it("reports a failed parse with the model's answer, exit code 1", async () => {
    server.script(answer("I do not know."));
    const run = context();
    expect(await main(["call", "ExtractPerson", "--args", '{"text": "?"}'], run)).toBe(1);
    expect(run.output().stderr).toContain("The model answered:\nI do not know.");
    expect(run.output().stderr).toContain("sapling call: ExtractPerson failed:");
  });

  it("explains usage mistakes: no function, bad JSON, unknown function, wrong arguments", async () => {
    const noName = context();
    expect(await main(["call"], noName)).toBe(2);
    expect(noName.output().stderr).toContain("name the function to call");
    const badJson = context();
    expect(await main(["call", "ExtractPerson", "--args", "{text:"], badJson)).toBe(2);
    expect(badJson.output().stderr).toContain("--args is not valid JSON");
    const unknown = context();
    expect(await main(["call", "Nope"], unknown)).toBe(1);
    expect(unknown.output().stderr).toContain("the project has no function Nope (functions: ExtractPerson)");
    const wrong = context();
    expect(await main(["call", "ExtractPerson", "--args", '{"text": 1}'], wrong)).toBe(1);
    expect(wrong.output().stderr).toContain("expected a string, got number 1");
    expect(server.requests).toHaveLength(0);
  });
});

describe("sapling call with a Vertex AI key file", () => {
  const vertexSource = `
class Person {
  name string
  age int
}

client<llm> Vertex {
  provider vertex-ai
  options {
    model "gemini-2.5-flash"
    location "us-central1"
    base_url env.VERTEX_URL
  }
}

function ExtractPerson(text: string) -> Person {
  client Vertex
  prompt #"
    Extract: {{ text }}
    {{ ctx.output_format }}
  "#
}
`;
  let project: string;
  let vertexEnv: Record<string, string>;

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), "sapling-call-vertex-"));
    mkdirSync(join(project, "baml_src"));
    mkdirSync(join(project, "keys"));
    writeFileSync(join(project, "baml_src", "main.baml"), vertexSource);
    const account = await createTestServiceAccount({
      tokenUri: server.tokenEndpoint.tokenUri,
      projectId: "cli-project",
    });
    server.tokenEndpoint.trust(account.publicKey);
    writeFileSync(join(project, "keys", "service-account.json"), JSON.stringify(account.keyFile, null, 2));
    vertexEnv = { VERTEX_URL: server.vertexModelsUrl("cli-project", "us-central1") };
  });

  it("reads the key file GOOGLE_APPLICATION_CREDENTIALS names, relative to the working directory", async () => {
    server.scriptFor("gemini", answer('{"name": "Ada", "age": 36}'));
    const run = captureContext({
      cwd: project,
      env: { ...vertexEnv, GOOGLE_APPLICATION_CREDENTIALS: join("keys", "service-account.json") },
    });
    expect(await main(["call", "ExtractPerson", "--args", '{"text": "Ada, 36"}'], run)).toBe(0);
    expect(JSON.parse(run.output().stdout)).toEqual({ name: "Ada", age: 36 });
    expect(server.requests[0]).toMatchObject({
      route: "gemini",
      path: "/v1/projects/cli-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent",
    });
    expect(server.requests[0]?.headers.authorization).toMatch(/^Bearer ya29\.mock-/);
  });

  it("names the key file and the variable when the file does not exist, exit code 1", async () => {
    const run = captureContext({
      cwd: project,
      env: { ...vertexEnv, GOOGLE_APPLICATION_CREDENTIALS: "keys/absent.json" },
    });
    expect(await main(["call", "ExtractPerson", "--args", '{"text": "Ada"}'], run)).toBe(1);
    expect(run.output().stderr).toContain(
      'client option `GOOGLE_APPLICATION_CREDENTIALS`: names the key file "keys/absent.json", which cannot be read (ENOENT',
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe("sapling call with an AWS profile", () => {
  const bedrockSource = `
class Person {
  name string
  age int
}

client<llm> Bedrock {
  provider aws-bedrock
  options {
    model "anthropic.claude-3-5-haiku-20241022-v1:0"
    endpoint_url env.BEDROCK_URL
  }
}

function ExtractPerson(text: string) -> Person {
  client Bedrock
  prompt #"
    Extract: {{ text }}
    {{ ctx.output_format }}
  "#
}
`;
  let project: string;

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), "sapling-call-bedrock-"));
    mkdirSync(join(project, "baml_src"));
    mkdirSync(join(project, "aws"));
    writeFileSync(join(project, "baml_src", "main.baml"), bedrockSource);
    const { accessKeyId, secretAccessKey } = mockAwsCredentials;
    writeFileSync(
      join(project, "aws", "credentials"),
      `[ci]\naws_access_key_id = ${accessKeyId}\naws_secret_access_key = ${secretAccessKey}\n`,
    );
    writeFileSync(join(project, "aws", "config"), "[profile ci]\nregion = eu-west-1\n");
  });

  it("signs with the keys AWS_SHARED_CREDENTIALS_FILE holds for AWS_PROFILE (relative to the working directory)", async () => {
    server.scriptFor("bedrock", answer('{"name": "Ada", "age": 36}'));
    const run = captureContext({
      cwd: project,
      env: {
        HOME: project,
        BEDROCK_URL: server.baseUrls.bedrock,
        AWS_PROFILE: "ci",
        AWS_SHARED_CREDENTIALS_FILE: join("aws", "credentials"),
        AWS_CONFIG_FILE: join("aws", "config"),
      },
    });
    expect(await main(["call", "ExtractPerson", "--args", '{"text": "Ada, 36"}'], run)).toBe(0);
    expect(JSON.parse(run.output().stdout)).toEqual({ name: "Ada", age: 36 });
    expect(server.requests[0]?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, /,
    );
  });

  it("names the profile and both files when neither has it, exit code 1", async () => {
    const run = captureContext({
      cwd: project,
      env: {
        HOME: project,
        BEDROCK_URL: server.baseUrls.bedrock,
        AWS_REGION: "us-east-1",
        AWS_PROFILE: "prod",
        AWS_SHARED_CREDENTIALS_FILE: join("aws", "credentials"),
      },
    });
    expect(await main(["call", "ExtractPerson", "--args", '{"text": "Ada"}'], run)).toBe(1);
    expect(run.output().stderr).toContain(
      `the AWS profile "prod" (from AWS_PROFILE) is in neither "${join("aws", "credentials")}" nor "${project}/.aws/config"`,
    );
    expect(server.requests).toHaveLength(0);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
