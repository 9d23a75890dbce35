/**
 * A BAML project whose clients are `provider aws-bedrock`, end to end: compiled to IR, prompts rendered,
 * the Converse request SigV4-signed with keys from the options, the environment or an AWS profile in a
 * temporary shared credentials file (read by the runtime's default Node file reader), and sent to the mock
 * server (which recomputes the signature), answers read as JSON and as binary event streams, parsed by the
 * Schema-Aligned Parser, with usage, finish reasons, media, errors and `b.request` as the runtime reports
 * them — and the secret key nowhere in what the runtime records.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { awsBedrock } from "../aws-bedrock/index.js";
import type { Ir } from "../ir/index.js";
import { compile } from "../language/index.js";
import {
  answer,
  cutByLength,
  type MockLlmServer,
  mockAwsCredentials,
  rateLimited,
  startMockLlmServer,
} from "../testing/index.js";
import { Collector } from "./collector.js";
import { BamlAllClientsFailedError, BamlClientFinishReasonError, BamlClientOptionsError } from "./errors.js";
import { Image } from "./media.js";
import { SaplingRuntime } from "./sapling-runtime.js";

const PERSON = '{"name": "Ada Lovelace", "age": 36}';
const MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0";
const { accessKeyId, secretAccessKey } = mockAwsCredentials;

const source = `
class Person {
  name string
  age int
}

client<llm> Bedrock {
  provider aws-bedrock
  retry_policy OneRetry
  options {
    model "${MODEL}"
    region "us-east-1"
    endpoint_url env.BEDROCK_URL
    access_key_id env.MY_AWS_KEY_ID
    secret_access_key env.MY_AWS_SECRET
    inference_configuration {
      max_tokens 500
      temperature 0
    }
  }
}

client<llm> BedrockFromEnvironment {
  provider aws-bedrock
  options {
    model_id "amazon.nova-pro-v1:0"
    endpoint_url env.BEDROCK_URL
  }
}

client<llm> BedrockStrict {
  provider aws-bedrock
  options {
    model "${MODEL}"
    region "us-east-1"
    endpoint_url env.BEDROCK_URL
    access_key_id env.MY_AWS_KEY_ID
    secret_access_key env.MY_AWS_SECRET
    finish_reason_deny_list ["max_tokens"]
  }
}

client<llm> BedrockProfile {
  provider aws-bedrock
  options {
    model "${MODEL}"
    region "us-east-1"
    endpoint_url env.BEDROCK_URL
    profile "dev"
  }
}

retry_policy OneRetry {
  max_retries 1
}

function ExtractPerson(text: string) -> Person {
  client Bedrock
  prompt #"
    {{ _.role("system") }}
    Extract the person.
    {{ ctx.output_format }}
    {{ _.role("user") }}
    {{ text }}
  "#
}

function DescribePicture(photo: image) -> Person {
  client Bedrock
  prompt #"
    {{ _.role("user") }}
    Who is this? {{ photo }}
    {{ ctx.output_format }}
  "#
}
`;

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
beforeEach(() => {
  server.requests.length = 0;
});

function runtime(env: Record<string, string> = {}) {
  return SaplingRuntime.fromIr(ir, {
    providers: [awsBedrock],
    env: {
      BEDROCK_URL: server.baseUrls.bedrock,
      MY_AWS_KEY_ID: accessKeyId,
      MY_AWS_SECRET: secretAccessKey,
      ...env,
    },
    sleep: async () => {},
  });
}

describe("provider aws-bedrock through the runtime", () => {
  it("calls and streams with signed Converse requests, reporting usage and the stop reason", async () => {
    server.scriptFor(
      "bedrock",
      answer(`Sure:\n\`\`\`json\n${PERSON}\n\`\`\``, { usage: { inputTokens: 42, outputTokens: 17 } }),
      answer(PERSON, { chunkSize: 5, usage: { inputTokens: 30, outputTokens: 11, cachedInputTokens: 8 } }),
    );
    const collector = new Collector();
    const sapling = runtime();

    expect(await sapling.call("ExtractPerson", { text: "Ada Lovelace, 36" }, { collector })).toEqual({
      name: "Ada Lovelace",
      age: 36,
    });
    const sent = server.requests[0];
    expect(sent).toMatchObject({
      route: "bedrock",
      path: "/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse",
      model: MODEL,
      stream: false,
      body: { inferenceConfig: { maxTokens: 500, temperature: 0 } },
    });
    expect(JSON.stringify(sent?.body.system)).toContain("age: int");
    expect(sent?.body.messages).toEqual([{ role: "user", content: [{ text: "Ada Lovelace, 36" }] }]);
    expect(sent?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request, /,
    );
    expect(collector.usage).toMatchObject({ inputTokens: 42, outputTokens: 17 });
    expect(collector.last?.selectedCall).toMatchObject({ provider: "aws-bedrock", finishReason: "end_turn" });

    const stream = sapling.stream("ExtractPerson", { text: "Ada" }, { collector });
    const partials: unknown[] = [];
    for await (const partial of stream) partials.push(partial);
    expect(await stream.getFinalResponse()).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(partials.length).toBeGreaterThan(2);
    expect(partials).toContainEqual({ name: "Ada Lovelace", age: null });
    expect(server.requests[1]).toMatchObject({
      path: expect.stringMatching(/\/converse-stream$/),
      stream: true,
    });
    expect(collector.last?.usage).toMatchObject({ inputTokens: 30, outputTokens: 11, cachedInputTokens: 8 });

    // The stream's events, decoded from binary frames, are what the collector keeps as the response.
    const events = collector.last?.selectedCall?.httpResponse?.body as unknown as string[];
    expect(events).toHaveLength(11);
    expect(JSON.parse(events.at(-1) ?? "")).toMatchObject({ usage: { cacheReadInputTokens: 8 } });
    const logs = JSON.stringify(collector.logs);
    expect(logs).not.toContain(secretAccessKey);
    expect(logs).not.toContain((sent?.headers.authorization ?? "").split("Signature=")[1]);
  });

  it("shows the signed request in b.request, without sending it", async () => {
    const request = await runtime().buildRequest("ExtractPerson", { text: "Ada" }, { stream: true });
    expect(request.url).toBe(
      `${server.baseUrls.bedrock}/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse-stream`,
    );
    expect(request.headers).toMatchObject({
      "content-type": "application/json",
      "x-amz-date": expect.stringMatching(/^\d{8}T\d{6}Z$/),
      authorization: expect.stringMatching(
        /SignedHeaders=content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/,
      ),
    });
    expect(JSON.stringify(request)).not.toContain(secretAccessKey);
    expect(server.requests).toHaveLength(0);
    // The shown request is the one that would be sent: the mock accepts its signature.
    server.scriptFor("bedrock", answer(PERSON));
    const sent = await fetch(request.url.replace(/-stream$/, ""), {
      method: "POST",
      headers: request.headers,
      body: JSON.stringify(request.body),
    });
    expect(sent.status).toBe(403); // the path is part of the signature: another operation is refused
    const replayed = await fetch(request.url, {
      method: "POST",
      headers: request.headers,
      body: JSON.stringify(request.body),
    });
    expect(replayed.status).toBe(200);
  });

  it("reads keys, session token and region from the environment", async () => {
    server.scriptFor("bedrock", answer(PERSON));
    const value = await runtime({
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: secretAccessKey,
      AWS_SESSION_TOKEN: "IQoJb3JpZ2luX2VjEXAMPLETOKEN",
      AWS_REGION: "eu-west-1",
    }).call("ExtractPerson", { text: "Ada" }, { client: "BedrockFromEnvironment" });
    expect(value).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(server.requests[0]).toMatchObject({ model: "amazon.nova-pro-v1:0" });
    expect(server.requests[0]?.headers.authorization).toContain("/eu-west-1/bedrock/aws4_request");
    expect(server.requests[0]?.headers["x-amz-security-token"]).toBe("IQoJb3JpZ2luX2VjEXAMPLETOKEN");
  });

  it("a max_tokens stop is a length cut the finish-reason policy can reject", async () => {
    server.scriptFor("bedrock", cutByLength('{"name": "Ada'));
    const error = await runtime()
      .call("ExtractPerson", { text: "Ada" }, { client: "BedrockStrict" })
      .catch((caught: unknown) => caught);
    expect(BamlClientFinishReasonError.isInstance(error)).toBe(true);
    expect(String(error)).toContain('stopped with finish reason "max_tokens"');
  });

  it("sends an image as bytes with its format", async () => {
    server.scriptFor("bedrock", answer(PERSON));
    await runtime().call("DescribePicture", { photo: Image.fromBase64("image/jpeg", "/9j/4AAQSkZJRg==") });
    const messages = server.requests[0]?.body.messages as { content: unknown[] }[] | undefined;
    const content = messages?.[0]?.content;
    expect(content).toContainEqual({ image: { format: "jpeg", source: { bytes: "/9j/4AAQSkZJRg==" } } });
  });

  it("retries a throttled call, then reports the refusal without the secret", async () => {
    server.scriptFor("bedrock", rateLimited(1), rateLimited(1));
    const error = await runtime()
      .call("ExtractPerson", { text: "Ada" })
      .catch((caught: unknown) => caught);
    expect(BamlAllClientsFailedError.isInstance(error)).toBe(true);
    const failure = error as BamlAllClientsFailedError;
    expect(failure.attempts).toHaveLength(2);
    expect(failure.message).toContain("429");
    expect(`${failure.message} ${JSON.stringify(failure.attempts)}`).not.toContain(secretAccessKey);
  });

  it("a wrong secret is refused by the signature check (HTTP 403)", async () => {
    const error = await runtime({ MY_AWS_SECRET: "definitely-not-the-secret" })
      .call("ExtractPerson", { text: "Ada" })
      .catch((caught: unknown) => caught);
    expect(String(error)).toContain("403");
    expect(String(error)).toContain("The request signature we calculated does not match");
    expect(String(error)).not.toContain("definitely-not-the-secret");
  });

  it("signs with the keys of a profile in the shared credentials file, its region from the config file", async () => {
    const folder = await mkdtemp(join(tmpdir(), "sapling-aws-"));
    try {
      const credentialsPath = join(folder, "credentials");
      await writeFile(
        credentialsPath,
        `[default]\naws_access_key_id = AKIAWRONGPROFILE\naws_secret_access_key = wrong\n\n[dev]\naws_access_key_id = ${accessKeyId}\naws_secret_access_key = ${secretAccessKey}\n`,
      );
      const configPath = join(folder, "config");
      await writeFile(configPath, "[profile dev]\nregion = eu-central-1\n");
      const files = { AWS_SHARED_CREDENTIALS_FILE: credentialsPath, AWS_CONFIG_FILE: configPath };
      server.scriptFor("bedrock", answer(PERSON), answer(PERSON));
      // The profile option wins over keys in the environment (which the mock would refuse).
      const collector = new Collector();
      const value = await runtime({
        ...files,
        AWS_ACCESS_KEY_ID: "AKIAENVIRONMENT",
        AWS_SECRET_ACCESS_KEY: "environment-secret",
      }).call("ExtractPerson", { text: "Ada" }, { client: "BedrockProfile", collector });
      expect(value).toEqual({ name: "Ada Lovelace", age: 36 });
      expect(server.requests[0]?.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request, /,
      );
      expect(JSON.stringify(collector.logs)).not.toContain(secretAccessKey);
      // AWS_PROFILE picks the profile for a client with no keys, and the config file gives its region.
      await runtime({ ...files, AWS_PROFILE: "dev" }).call(
        "ExtractPerson",
        { text: "Ada" },
        { client: "BedrockFromEnvironment" },
      );
      expect(server.requests[1]?.headers.authorization).toContain("/eu-central-1/bedrock/aws4_request");
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("refuses a profile with a way out when the runtime reads no files, before any request", async () => {
    const error = await SaplingRuntime.fromIr(ir, {
      providers: [awsBedrock],
      env: { BEDROCK_URL: server.baseUrls.bedrock },
      readTextFile: null,
    })
      .call("ExtractPerson", { text: "Ada" }, { client: "BedrockProfile" })
      .catch((caught: unknown) => caught);
    expect(BamlClientOptionsError.isInstance(error)).toBe(true);
    expect(String(error)).toMatch(
      /profile.*cannot read files.*work on Node.*pass access_key_id and secret_access_key/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it("names the profile and both files when neither has it", async () => {
    const folder = await mkdtemp(join(tmpdir(), "sapling-aws-"));
    try {
      const env = {
        AWS_SHARED_CREDENTIALS_FILE: join(folder, "credentials"),
        AWS_CONFIG_FILE: join(folder, "config"),
      };
      const error = await runtime(env)
        .call("ExtractPerson", { text: "Ada" }, { client: "BedrockProfile" })
        .catch((caught: unknown) => caught);
      expect(BamlClientOptionsError.isInstance(error)).toBe(true);
      expect(String(error)).toContain(
        `the AWS profile "dev" is in neither ${JSON.stringify(env.AWS_SHARED_CREDENTIALS_FILE)} nor ${JSON.stringify(env.AWS_CONFIG_FILE)}`,
      );
      expect(server.requests).toHaveLength(0);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("without the adapter (sapling-llm/aws-bedrock), refuses the client saying how to pass it, before any request", async () => {
    const withoutAdapter = SaplingRuntime.fromIr(ir, {
      env: {
        BEDROCK_URL: server.baseUrls.bedrock,
        MY_AWS_KEY_ID: accessKeyId,
        MY_AWS_SECRET: secretAccessKey,
      },
      sleep: async () => {},
    });
    const called = await withoutAdapter
      .call("ExtractPerson", { text: "Ada" })
      .catch((caught: unknown) => caught);
    expect(BamlClientOptionsError.isInstance(called)).toBe(true);
    const shown = await withoutAdapter
      .buildRequest("ExtractPerson", { text: "Ada" }, { stream: false })
      .catch((caught: unknown) => caught);
    for (const error of [called, shown]) {
      expect(String(error)).toContain(
        'import { awsBedrock } from "sapling-llm/aws-bedrock", then SaplingRuntime.fromIr(ir, { providers: [awsBedrock] })',
      );
    }
    expect(server.requests).toHaveLength(0);
  });
});
