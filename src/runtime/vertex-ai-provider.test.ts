/**
 * A BAML project whose clients are `provider vertex-ai` (Gemini on Vertex AI), end to end: compiled to IR,
 * prompts rendered, an access token minted from a throwaway service-account key at the mock server's token
 * endpoint, the Gemini request (Anthropic's, for Claude) sent to the project's Vertex path over HTTP and SSE, parsed by the
 * Schema-Aligned Parser, with usage, errors, media and `b.request` as the runtime reports them.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Ir } from "../ir/index.js";
import { compile } from "../language/index.js";
import {
  answer,
  createTestServiceAccount,
  type MockLlmServer,
  startMockLlmServer,
  type TestServiceAccount,
} from "../testing/index.js";
import { vertexAi } from "../vertex-ai/index.js";
import { Collector } from "./collector.js";
import { BamlAllClientsFailedError, BamlClientOptionsError } from "./errors.js";
import { Image } from "./media.js";
import { SaplingRuntime } from "./sapling-runtime.js";

const PERSON = '{"name": "Ada Lovelace", "age": 36}';

const source = `
class Person {
  name string
  age int
}

client<llm> Vertex {
  provider vertex-ai
  retry_policy OneRetry
  options {
    model "gemini-2.5-flash"
    location "us-central1"
    base_url env.VERTEX_URL
    credentials env.VERTEX_KEY_JSON
    generationConfig {
      temperature 0
    }
  }
}

client<llm> VertexFromEnvironment {
  provider vertex-ai
  options {
    model "gemini-2.5-pro"
    location "us-central1"
    base_url env.VERTEX_URL
  }
}

client<llm> VertexClaude {
  provider vertex-ai
  options {
    model "claude-sonnet-4@20250514"
    location "us-east5"
    base_url env.VERTEX_CLAUDE_URL
    credentials env.VERTEX_KEY_JSON
    max_tokens 1000
  }
}

client<llm> VertexKeyFile {
  provider vertex-ai
  options {
    model "gemini-2.5-flash"
    location "us-central1"
    base_url env.VERTEX_URL
    credentials env.VERTEX_KEY_PATH
  }
}

retry_policy OneRetry {
  max_retries 1
}

function ExtractPerson(text: string) -> Person {
  client Vertex
  prompt #"
    {{ _.role("system") }}
    Extract the person.
    {{ ctx.output_format }}
    {{ _.role("user") }}
    {{ text }}
  "#
}

function DescribePicture(photo: image) -> Person {
  client Vertex
  prompt #"
    {{ _.role("user") }}
    Who is this? {{ photo }}
    {{ ctx.output_format }}
  "#
}
`;

let server: MockLlmServer;
let ir: Ir;
let account: TestServiceAccount;
let stranger: TestServiceAccount;
let modelsUrl: string;
/** A folder holding `service-account.json`, the main key written as Google issues it. */
let keyFolder: string;
let keyPath: string;

beforeAll(async () => {
  server = await startMockLlmServer();
  const compiled = compile({ "main.baml": source });
  if (!compiled.ir) throw new Error(`fixture does not compile: ${JSON.stringify(compiled.diagnostics)}`);
  ir = compiled.ir;
  const tokenUri = server.tokenEndpoint.tokenUri;
  account = await createTestServiceAccount({ tokenUri, projectId: "vertex-e2e" });
  stranger = await createTestServiceAccount({
    tokenUri,
    clientEmail: "revoked@vertex-e2e.iam.gserviceaccount.com",
  });
  server.tokenEndpoint.trust(account.publicKey);
  modelsUrl = server.vertexModelsUrl("vertex-e2e", "us-central1");
  keyFolder = await mkdtemp(join(tmpdir(), "sapling-vertex-"));
  keyPath = join(keyFolder, "service-account.json");
  await writeFile(keyPath, JSON.stringify(account.keyFile, null, 2));
});
afterAll(async () => {
  await server.close();
  await rm(keyFolder, { recursive: true, force: true });
});
beforeEach(() => {
  server.requests.length = 0;
});

function runtime(
  env: Record<string, string> = {},
  readTextFile?: ((path: string) => Promise<string>) | null,
) {
  return SaplingRuntime.fromIr(ir, {
    providers: [vertexAi],
    ...(readTextFile === undefined ? {} : { readTextFile }),
    env: {
      VERTEX_URL: modelsUrl,
      VERTEX_CLAUDE_URL: server.vertexModelsUrl("vertex-e2e", "us-east5", "anthropic"),
      VERTEX_KEY_JSON: JSON.stringify(account.keyFile),
      ...env,
    },
    sleep: async () => {},
  });
}

/** The token requests this test file's main key has made so far. */
function tokensIssuedTo(key: TestServiceAccount): number {
  return server.tokenEndpoint.requests.filter(
    (request) => request.claims.iss === key.keyFile.client_email && request.accessToken !== undefined,
  ).length;
}

describe("provider vertex-ai through the runtime", () => {
  it("calls, streams and builds requests with one access token, minted once and sent as a bearer header", async () => {
    const before = tokensIssuedTo(account);
    server.scriptFor(
      "gemini",
      answer(`Sure:\n\`\`\`json\n${PERSON}\n\`\`\``, { usage: { inputTokens: 42, outputTokens: 17 } }),
      answer(PERSON, { chunkSize: 5, usage: { inputTokens: 30, outputTokens: 11 } }),
      answer(PERSON),
    );
    const collector = new Collector();
    const sapling = runtime();

    expect(await sapling.call("ExtractPerson", { text: "Ada Lovelace, 36" }, { collector })).toEqual({
      name: "Ada Lovelace",
      age: 36,
    });
    const sent = server.requests[0];
    expect(sent).toMatchObject({
      route: "gemini",
      path: "/v1/projects/vertex-e2e/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent",
      stream: false,
    });
    expect(sent?.body).toMatchObject({ generationConfig: { temperature: 0 } });
    expect(JSON.stringify(sent?.body.system_instruction)).toContain("age: int");
    expect(JSON.stringify(sent?.body.contents)).toContain("Ada Lovelace, 36");
    expect(collector.usage).toMatchObject({ inputTokens: 42, outputTokens: 17 });
    expect(collector.last?.selectedCall).toMatchObject({ provider: "vertex-ai", finishReason: "STOP" });

    const stream = sapling.stream("ExtractPerson", { text: "Ada" }, { collector });
    const partials: unknown[] = [];
    for await (const partial of stream) partials.push(partial);
    expect(await stream.getFinalResponse()).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(partials.length).toBeGreaterThan(2);
    expect(partials).toContainEqual({ name: "Ada Lovelace", age: null });
    expect(server.requests[1]).toMatchObject({ stream: true, query: { alt: "sse" } });
    expect(collector.last?.usage).toMatchObject({ inputTokens: 30, outputTokens: 11 });

    await sapling.call("ExtractPerson", { text: "Ada" });
    const request = await sapling.buildRequest("ExtractPerson", { text: "Ada" }, { stream: false });
    expect(request.url).toBe(`${modelsUrl}/gemini-2.5-flash:generateContent`);

    const tokens = server.requests.map((sentRequest) => sentRequest.headers.authorization);
    expect(new Set([...tokens, request.headers.authorization]).size).toBe(1);
    expect(tokens[0]).toMatch(/^Bearer ya29\.mock-/);
    expect(tokensIssuedTo(account) - before).toBe(1);

    const logs = JSON.stringify(collector.logs);
    expect(logs).not.toContain((tokens[0] ?? "").slice("Bearer ".length));
    expect(logs).not.toContain("PRIVATE KEY");
  });

  it("reads the key from GOOGLE_APPLICATION_CREDENTIALS_CONTENT when the client names no credentials", async () => {
    server.scriptFor("gemini", answer(PERSON));
    const value = await runtime({
      GOOGLE_APPLICATION_CREDENTIALS_CONTENT: JSON.stringify(account.keyFile),
    }).call("ExtractPerson", { text: "Ada" }, { client: "VertexFromEnvironment" });
    expect(value).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(server.requests[0]?.model).toBe("gemini-2.5-pro");
    expect(server.requests[0]?.headers.authorization).toMatch(/^Bearer ya29\.mock-/);
  });

  it("calls and streams Claude on Vertex: Anthropic body and events at :rawPredict / :streamRawPredict", async () => {
    server.scriptFor(
      "anthropic",
      answer(PERSON, { usage: { inputTokens: 20, outputTokens: 9 } }),
      answer(PERSON, { chunkSize: 6 }),
    );
    const collector = new Collector();
    const sapling = runtime();
    const options = { client: "VertexClaude", collector };
    expect(await sapling.call("ExtractPerson", { text: "Ada" }, options)).toEqual({
      name: "Ada Lovelace",
      age: 36,
    });
    const stream = sapling.stream("ExtractPerson", { text: "Ada" }, options);
    const partials: unknown[] = [];
    for await (const partial of stream) partials.push(partial);
    expect(await stream.getFinalResponse()).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(partials.length).toBeGreaterThan(2);
    const [whole, streamed] = server.requests;
    expect(whole).toMatchObject({
      route: "anthropic",
      path: "/v1/projects/vertex-e2e/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict",
      model: "claude-sonnet-4@20250514",
      body: { anthropic_version: "vertex-2023-10-16", max_tokens: 1000 },
    });
    expect(whole?.body).not.toHaveProperty("model");
    expect(whole?.headers.authorization).toMatch(/^Bearer ya29\.mock-/);
    expect(streamed?.path).toMatch(/:streamRawPredict$/);
    expect(streamed?.body.stream).toBe(true);
    expect(collector.logs[0]?.usage).toMatchObject({ inputTokens: 20, outputTokens: 9 });
  });

  it("sends an image URL as file_data with its MIME type", async () => {
    server.scriptFor("gemini", answer(PERSON));
    await runtime().call("DescribePicture", { photo: Image.fromUrl("gs://portraits/ada.png") });
    const contents = (server.requests[0]?.body.contents ?? []) as { parts: Record<string, unknown>[] }[];
    const parts = contents.flatMap((content) => content.parts);
    expect(parts).toContainEqual({
      file_data: { file_uri: "gs://portraits/ada.png", mime_type: "image/png" },
    });
  });

  it("reports a key the token endpoint refuses as a client failure naming the account, never the key", async () => {
    const error = await runtime({ VERTEX_KEY_JSON: JSON.stringify(stranger.keyFile) })
      .call("ExtractPerson", { text: "Ada" })
      .catch((caught: unknown) => caught);
    // The retry policy asks for a token again: a refusal is not cached.
    expect(BamlAllClientsFailedError.isInstance(error)).toBe(true);
    const failure = error as BamlAllClientsFailedError;
    expect(failure.attempts).toHaveLength(2);
    expect(failure.message).toContain(
      "vertex-ai could not get an access token for service account revoked@vertex-e2e.iam.gserviceaccount.com (from credentials)",
    );
    expect(failure.message).toContain(
      "answered HTTP 400: invalid_grant: Invalid JWT Signature. Check that the key",
    );
    expect(`${failure.message} ${failure.stack} ${JSON.stringify(failure.attempts)}`).not.toContain(
      "PRIVATE KEY",
    );
    expect(server.requests).toHaveLength(0);
  });

  it("reads the key file GOOGLE_APPLICATION_CREDENTIALS names with the default reader (Node's fs)", async () => {
    server.scriptFor("gemini", answer(PERSON), answer(PERSON));
    const sapling = runtime({ GOOGLE_APPLICATION_CREDENTIALS: keyPath });
    const options = { client: "VertexFromEnvironment" };
    expect(await sapling.call("ExtractPerson", { text: "Ada" }, options)).toEqual({
      name: "Ada Lovelace",
      age: 36,
    });
    const request = await sapling.buildRequest("ExtractPerson", { text: "Ada" }, { stream: false }, options);
    expect(server.requests[0]?.headers.authorization).toMatch(/^Bearer ya29\.mock-/);
    expect(request.headers.authorization).toBe(server.requests[0]?.headers.authorization);
  });

  it("reads a credentials path through an explicit readTextFile, once for several calls", async () => {
    server.scriptFor("gemini", answer(PERSON), answer(PERSON));
    const reads: string[] = [];
    const readTextFile = (path: string) => {
      reads.push(path);
      return readFile(join(keyFolder, path), "utf8");
    };
    const sapling = runtime({ VERTEX_KEY_PATH: "service-account.json" }, readTextFile);
    const options = { client: "VertexKeyFile" };
    await sapling.call("ExtractPerson", { text: "Ada" }, options);
    const stream = sapling.stream("ExtractPerson", { text: "Ada" }, options);
    expect(await stream.getFinalResponse()).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(reads).toEqual(["service-account.json"]);
    expect(server.requests.map((sent) => sent.headers.authorization)).toEqual([
      expect.stringMatching(/^Bearer ya29\.mock-/),
      server.requests[0]?.headers.authorization,
    ]);
  });

  it("names a key file that does not exist, before any request", async () => {
    const missing = join(keyFolder, "absent.json");
    const error = await runtime({ VERTEX_KEY_PATH: missing })
      .call("ExtractPerson", { text: "Ada" }, { client: "VertexKeyFile" })
      .catch((caught: unknown) => caught);
    expect(BamlClientOptionsError.isInstance(error)).toBe(true);
    expect(String(error)).toContain(
      `credentials\`: names the key file ${JSON.stringify(missing)}, which cannot be read (ENOENT`,
    );
    expect(server.requests).toHaveLength(0);
  });

  it("refuses a key file path with a way out when the runtime reads no files (readTextFile null, as in a browser)", async () => {
    const error = await runtime({ VERTEX_KEY_PATH: keyPath }, null)
      .call("ExtractPerson", { text: "Ada" }, { client: "VertexKeyFile" })
      .catch((caught: unknown) => caught);
    expect(BamlClientOptionsError.isInstance(error)).toBe(true);
    expect(String(error)).toMatch(
      /looks like a file path, and this host cannot read files.*pass the key file's JSON content instead/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it("without the adapter (sapling-llm/vertex-ai), refuses the client saying how to pass it, before any request", async () => {
    const withoutAdapter = SaplingRuntime.fromIr(ir, {
      env: { VERTEX_URL: modelsUrl, VERTEX_KEY_JSON: JSON.stringify(account.keyFile) },
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
        'import { vertexAi } from "sapling-llm/vertex-ai", then SaplingRuntime.fromIr(ir, { providers: [vertexAi] })',
      );
    }
    expect(server.requests).toHaveLength(0);
  });
});
