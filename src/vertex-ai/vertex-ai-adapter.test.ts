/**
 * The vertex-ai provider through `createLanguageModel` with a replaying fetch: the URL it builds, where its
 * credentials come from (in BAML's order), and the bearer token it mints. The mock-server round trip (calls,
 * streams, usage, token caching, key files on disk) is in `src/runtime/vertex-ai-provider.test.ts`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createLanguageModel as createAnyLanguageModel } from "../llm/create-language-model.js";
import { LlmError } from "../llm/index.js";
import { LlmAbortError, LlmOptionsError } from "../provider-helpers/index.js";
import { createReplayFetch, createTestServiceAccount, type TestServiceAccount } from "../testing/index.js";
import type { ChatMessage } from "../util/index.js";
import { vertexAi } from "./index.js";

/** `createLanguageModel` given this room's adapter, as the runtime gives it. */
const createLanguageModel: typeof createAnyLanguageModel = (provider, options, dependencies) =>
  createAnyLanguageModel(provider, options, { ...dependencies, providers: [vertexAi] });

const tokenUri = "https://oauth.test/token";
const messages: ChatMessage[] = [
  { role: "system", parts: [{ type: "text", text: "Be brief." }] },
  { role: "user", parts: [{ type: "text", text: "hi" }] },
];
let account: TestServiceAccount;
let tokenCount = 0;

beforeAll(async () => {
  account = await createTestServiceAccount({ tokenUri, projectId: "key-project" });
});

/** Answers token requests with a new token each time, and everything else with a Gemini answer. */
function vertexFetch() {
  return createReplayFetch((call) =>
    call.url === tokenUri
      ? { body: JSON.stringify({ access_token: `ya29.unit-${++tokenCount}`, expires_in: 3600 }) }
      : {
          body: JSON.stringify({
            candidates: [{ content: { role: "model", parts: [{ text: "hello" }] }, finishReason: "STOP" }],
            usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1 },
          }),
        },
  );
}

function optionsError(run: () => unknown): LlmOptionsError {
  try {
    run();
  } catch (error) {
    if (LlmOptionsError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an options error");
}

const base = { model: "gemini-2.5-flash", location: "us-central1" };

describe("vertex-ai requests", () => {
  it("builds the regional Vertex URL from project_id and location, with the Gemini body and a minted bearer token", async () => {
    const fetch = vertexFetch();
    const model = createLanguageModel(
      "vertex-ai",
      {
        ...base,
        project_id: "my-project",
        credentials: account.keyFile,
        generationConfig: { temperature: 0 },
      },
      { fetch },
    );
    const request = await model.buildRequest(messages, { stream: false });
    expect(request.url).toBe(
      "https://us-central1-aiplatform.googleapis.com/v1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent",
    );
    expect(request.headers.authorization).toMatch(/^Bearer ya29\.unit-\d+$/);
    expect(request.body).toEqual({
      generationConfig: { temperature: 0 },
      system_instruction: { parts: [{ text: "Be brief." }] },
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
    });
    const streamed = await model.buildRequest(messages, { stream: true });
    expect(streamed.url).toMatch(/\/models\/gemini-2\.5-flash:streamGenerateContent\?alt=sse$/);
    expect(fetch.calls.filter((call) => call.url === tokenUri)).toHaveLength(1);
  });

  it("uses the global host for location global and the key's project_id when none is given", async () => {
    const model = createLanguageModel(
      "vertex-ai",
      { ...base, location: "global", credentials: account.keyFile },
      { fetch: vertexFetch() },
    );
    expect((await model.buildRequest(messages, { stream: false })).url).toBe(
      "https://aiplatform.googleapis.com/v1/projects/key-project/locations/global/publishers/google/models/gemini-2.5-flash:generateContent",
    );
  });

  it("appends the model to base_url, which replaces the whole prefix (project_id and location unused)", async () => {
    const model = createLanguageModel(
      "vertex-ai",
      {
        model: "gemini-2.5-pro",
        base_url: "https://proxy.test/v1/projects/p/locations/europe-west4/publishers/google/models/",
        credentials: account.keyFile,
      },
      { fetch: vertexFetch() },
    );
    expect((await model.buildRequest(messages, { stream: false })).url).toBe(
      "https://proxy.test/v1/projects/p/locations/europe-west4/publishers/google/models/gemini-2.5-pro:generateContent",
    );
  });

  it("answers a call with the Gemini reader (text, finish reason, usage)", async () => {
    const model = createLanguageModel(
      "vertex-ai",
      { ...base, credentials: account.keyFile },
      { fetch: vertexFetch() },
    );
    const result = await model.generate(messages);
    expect(result).toMatchObject({
      text: "hello",
      finishReason: "stop",
      rawFinishReason: "STOP",
      usage: { inputTokens: 3, outputTokens: 1 },
    });
  });

  it("sends media given by URL as file_data with its MIME type by default (BAML's Vertex behaviour)", async () => {
    const model = createLanguageModel(
      "vertex-ai",
      { ...base, credentials: account.keyFile },
      { fetch: vertexFetch() },
    );
    const withImage: ChatMessage[] = [
      {
        role: "user",
        parts: [
          { type: "text", text: "describe" },
          {
            type: "media",
            media: { kind: "media", type: "image", url: "gs://bucket/cat.png", mediaType: "image/png" },
          },
        ],
      },
    ];
    const request = await model.buildRequest(withImage, { stream: false });
    expect(request.body.contents).toEqual([
      {
        role: "user",
        parts: [
          { text: "describe" },
          { file_data: { file_uri: "gs://bucket/cat.png", mime_type: "image/png" } },
        ],
      },
    ]);
  });

  it("ends promptly with LlmAbortError when the caller aborts while the token is being fetched", async () => {
    const other = await createTestServiceAccount({ tokenUri: "https://slow-oauth.test/token" });
    const slow = createReplayFetch(
      () => new Promise((resolve) => setTimeout(() => resolve({ body: '{"access_token":"late"}' }), 200)),
    );
    const model = createLanguageModel("vertex-ai", { ...base, credentials: other.keyFile }, { fetch: slow });
    const controller = new AbortController();
    const pending = model.generate(messages, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user left")), 10);
    const error = await pending.catch((caught: unknown) => caught);
    expect(LlmAbortError.isInstance(error)).toBe(true);
  });
});

describe("vertex-ai credentials", () => {
  const json = () => JSON.stringify(account.keyFile);
  const tokenRequests = async (options: Record<string, unknown>, env: Record<string, string> = {}) => {
    const fetch = vertexFetch();
    const model = createLanguageModel("vertex-ai", { ...base, ...options }, { fetch, env });
    const request = await model.buildRequest(messages, { stream: false });
    return { request, tokenCalls: fetch.calls.filter((call) => call.url === tokenUri).length };
  };

  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ["credentials as a JSON object", { credentials: "object" }, {}],
    ["credentials as a JSON string", { credentials: "json" }, {}],
    ["credentials_content", { credentials_content: "json" }, {}],
    ["GOOGLE_APPLICATION_CREDENTIALS holding JSON", {}, { GOOGLE_APPLICATION_CREDENTIALS: "json" }],
    ["GOOGLE_APPLICATION_CREDENTIALS_CONTENT", {}, { GOOGLE_APPLICATION_CREDENTIALS_CONTENT: "json" }],
    [
      "GOOGLE_APPLICATION_CREDENTIALS_CONTENT beside a GOOGLE_APPLICATION_CREDENTIALS path",
      {},
      { GOOGLE_APPLICATION_CREDENTIALS: "/keys/sa.json", GOOGLE_APPLICATION_CREDENTIALS_CONTENT: "json" },
    ],
  ])("mints a bearer token from %s", async (_name, options, env) => {
    const fill = (value: unknown) =>
      value === "object" ? account.keyFile : value === "json" ? json() : value;
    const { request } = await tokenRequests(
      Object.fromEntries(Object.entries(options).map(([name, value]) => [name, fill(value)])),
      Object.fromEntries(Object.entries(env).map(([name, value]) => [name, fill(value) as string])),
    );
    expect(request.headers.authorization).toMatch(/^Bearer ya29\.unit-\d+$/);
  });

  it("sends an access token given as the authorization option, and a headers authorization as is", async () => {
    const fromOption = await tokenRequests({ project_id: "p", authorization: "ya29.given" });
    expect(fromOption.request.headers.authorization).toBe("Bearer ya29.given");
    expect(fromOption.tokenCalls).toBe(0);
    const fromHeader = await tokenRequests({
      project_id: "p",
      headers: { Authorization: "Bearer ya29.header" },
    });
    expect(fromHeader.request.headers.authorization).toBe("Bearer ya29.header");
    expect(fromHeader.tokenCalls).toBe(0);
  });

  it("sends no bearer token with an express-mode API key, even when the environment has credentials", async () => {
    const { request, tokenCalls } = await tokenRequests(
      { project_id: "p", query_params: { key: "vertex-express-key" } },
      { GOOGLE_APPLICATION_CREDENTIALS_CONTENT: json() },
    );
    expect(request.headers).not.toHaveProperty("authorization");
    expect(request.url).toMatch(/:generateContent\?key=vertex-express-key$/);
    expect(tokenCalls).toBe(0);
  });

  it.each<[string, Record<string, unknown>, Record<string, string>, string, RegExp]>([
    [
      "a credentials file path",
      { credentials: "keys/sa.json" },
      {},
      "credentials",
      /looks like a file path.*JSON content instead/,
    ],
    [
      "a GOOGLE_APPLICATION_CREDENTIALS path",
      { project_id: "p" },
      { GOOGLE_APPLICATION_CREDENTIALS: "/keys/sa.json" },
      "GOOGLE_APPLICATION_CREDENTIALS",
      /looks like a file path/,
    ],
    [
      "no credentials at all",
      { project_id: "p" },
      {},
      "credentials",
      /no credentials found.*GOOGLE_APPLICATION_CREDENTIALS_CONTENT/,
    ],
    [
      "credentials and credentials_content",
      { credentials: "{}", credentials_content: "{}" },
      {},
      "credentials",
      /keep only one/,
    ],
    [
      "credentials_content that is not JSON",
      { credentials_content: "{oops" },
      {},
      "credentials_content",
      /not valid JSON/,
    ],
    [
      "a key without project_id and no project_id option",
      { credentials: "no-project" },
      {},
      "project_id",
      /is required/,
    ],
    [
      "no location and no base_url",
      { location: undefined, credentials: "object" },
      {},
      "location",
      /is required/,
    ],
    ["no model", { model: undefined, credentials: "object" }, {}, "model", /is required/],
  ])("refuses %s with an options error", (_name, options, env, option, message) => {
    const { project_id: _unused, ...withoutProject } = account.keyFile;
    const fill = (value: unknown) =>
      value === "object" ? account.keyFile : value === "no-project" ? withoutProject : value;
    const error = optionsError(() =>
      createLanguageModel(
        "vertex-ai",
        {
          ...base,
          ...Object.fromEntries(Object.entries(options).map(([name, value]) => [name, fill(value)])),
        },
        { fetch: vertexFetch(), env },
      ),
    );
    expect(error.option).toBe(option);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain("PRIVATE KEY");
    expect(LlmError.isInstance(error)).toBe(true);
  });
});

describe("vertex-ai key files read through readTextFile", () => {
  /** A fake file system: the files it holds, and every path read. */
  function fakeFiles(files: Record<string, string>) {
    const reads: string[] = [];
    const readTextFile = async (path: string): Promise<string> => {
      reads.push(path);
      const text = files[path];
      if (text === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      return text;
    };
    return { files, reads, readTextFile };
  }
  const rejection = async (pending: Promise<unknown>): Promise<LlmOptionsError> => {
    const error = await pending.catch((caught: unknown) => caught);
    if (LlmOptionsError.isInstance(error)) return error;
    throw new Error(`expected an options error, got ${String(error)}`);
  };

  it("reads a credentials path once for many requests and models, and takes the project from the key", async () => {
    const disk = fakeFiles({ "keys/sa.json": JSON.stringify(account.keyFile) });
    const fetch = vertexFetch();
    const create = () =>
      createLanguageModel(
        "vertex-ai",
        { ...base, credentials: "keys/sa.json" },
        { fetch, readTextFile: disk.readTextFile },
      );
    const first = await create().buildRequest(messages, { stream: false });
    expect(first.url).toBe(
      "https://us-central1-aiplatform.googleapis.com/v1/projects/key-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent",
    );
    expect(first.headers.authorization).toMatch(/^Bearer ya29\.unit-\d+$/);
    const [streamed, called] = await Promise.all([
      create().buildRequest(messages, { stream: true }),
      create().generate(messages),
    ]);
    expect(streamed.url).toMatch(/\/projects\/key-project\/.*:streamGenerateContent\?alt=sse$/);
    expect(called.text).toBe("hello");
    expect(fetch.calls.find((call) => call.url.includes(":generateContent"))?.url).toContain(
      "/projects/key-project/",
    );
    expect(disk.reads).toEqual(["keys/sa.json"]);
  });

  it("reads the GOOGLE_APPLICATION_CREDENTIALS path before GOOGLE_APPLICATION_CREDENTIALS_CONTENT (BAML's order)", async () => {
    const disk = fakeFiles({ "/etc/keys/vertex.json": JSON.stringify(account.keyFile) });
    const model = createLanguageModel(
      "vertex-ai",
      { ...base, project_id: "given-project" },
      {
        fetch: vertexFetch(),
        readTextFile: disk.readTextFile,
        env: {
          GOOGLE_APPLICATION_CREDENTIALS: "/etc/keys/vertex.json",
          GOOGLE_APPLICATION_CREDENTIALS_CONTENT: "{not json, never read",
        },
      },
    );
    const request = await model.buildRequest(messages, { stream: false });
    expect(request.url).toContain("/projects/given-project/");
    expect(request.headers.authorization).toMatch(/^Bearer ya29\.unit-\d+$/);
    expect(disk.reads).toEqual(["/etc/keys/vertex.json"]);
  });

  it("names the path and its variable when the file cannot be read, and reads it again on the next call", async () => {
    const disk = fakeFiles({});
    const create = () =>
      createLanguageModel("vertex-ai", base, {
        fetch: vertexFetch(),
        readTextFile: disk.readTextFile,
        env: { GOOGLE_APPLICATION_CREDENTIALS: "missing/key.json" },
      });
    // Creating the model reads nothing: the file is read when a request is authorized.
    const model = create();
    expect(disk.reads).toEqual([]);
    const error = await rejection(model.generate(messages));
    expect(error.option).toBe("GOOGLE_APPLICATION_CREDENTIALS");
    expect(error.message).toContain('names the key file "missing/key.json", which cannot be read (ENOENT');
    expect(error.message).toContain("relative path resolves against the current working directory");
    disk.files["missing/key.json"] = JSON.stringify(account.keyFile);
    const request = await create().buildRequest(messages, { stream: false });
    expect(request.url).toContain("/projects/key-project/");
    expect(disk.reads).toEqual(["missing/key.json", "missing/key.json"]);
  });

  it.each<[string, string, RegExp]>([
    ["a file that is not JSON", "project = acme", /the key file "k\.json", which is not valid JSON/],
    [
      "a gcloud user credential",
      JSON.stringify({ type: "authorized_user", client_id: "x", refresh_token: "y" }),
      /the key file "k\.json": is a "authorized_user" credential; only service-account keys/,
    ],
    [
      "a key without a private key",
      JSON.stringify({ type: "service_account", client_email: "a@b.iam.gserviceaccount.com" }),
      /the key file "k\.json": the key has no `private_key`/,
    ],
  ])("refuses %s, naming the file and the option", async (_name, text, message) => {
    const disk = fakeFiles({ "k.json": text });
    const model = createLanguageModel(
      "vertex-ai",
      { ...base, project_id: "p", credentials: "k.json" },
      { fetch: vertexFetch(), readTextFile: disk.readTextFile },
    );
    const error = await rejection(model.buildRequest(messages, { stream: false }));
    expect(error.option).toBe("credentials");
    expect(error.message).toMatch(message);
  });

  it("asks for project_id when neither the options nor the key file name one", async () => {
    const { project_id: _unused, ...withoutProject } = account.keyFile;
    const disk = fakeFiles({ "k.json": JSON.stringify(withoutProject) });
    const fetch = vertexFetch();
    const model = createLanguageModel(
      "vertex-ai",
      { ...base, credentials: "k.json" },
      { fetch, readTextFile: disk.readTextFile },
    );
    const error = await rejection(model.generate(messages));
    expect(error.option).toBe("project_id");
    expect(error.message).toContain('the key file "k.json" names no project_id');
    expect(fetch.calls).toHaveLength(0);
  });

  it("without readTextFile (browsers, edge) refuses a path and says that paths work on Node", () => {
    const error = optionsError(() =>
      createLanguageModel(
        "vertex-ai",
        { ...base, project_id: "p" },
        { fetch: vertexFetch(), env: { GOOGLE_APPLICATION_CREDENTIALS: "/keys/sa.json" } },
      ),
    );
    expect(error.option).toBe("GOOGLE_APPLICATION_CREDENTIALS");
    expect(error.message).toMatch(
      /looks like a file path, and this host cannot read files \(key file paths work on Node.*GOOGLE_APPLICATION_CREDENTIALS_CONTENT/,
    );
  });
});

describe("Claude on vertex-ai", () => {
  const claudeFetch = () =>
    createReplayFetch((call) =>
      call.url === tokenUri
        ? { body: JSON.stringify({ access_token: `ya29.unit-${++tokenCount}`, expires_in: 3600 }) }
        : {
            body: JSON.stringify({
              id: "msg_1",
              type: "message",
              role: "assistant",
              model: "claude-sonnet-4@20250514",
              content: [{ type: "text", text: "Bonjour" }],
              stop_reason: "end_turn",
              usage: { input_tokens: 9, output_tokens: 2 },
            }),
          },
    );

  it("sends a claude model the Anthropic body at publishers/anthropic …:rawPredict, version in the body", async () => {
    const model = createLanguageModel(
      "vertex-ai",
      {
        model: "claude-sonnet-4@20250514",
        location: "us-east5",
        credentials: account.keyFile,
        temperature: 0,
      },
      { fetch: claudeFetch() },
    );
    const request = await model.buildRequest(messages, { stream: false });
    expect(request.url).toBe(
      "https://us-east5-aiplatform.googleapis.com/v1/projects/key-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict",
    );
    expect(request.body).toEqual({
      anthropic_version: "vertex-2023-10-16",
      max_tokens: 4096,
      temperature: 0,
      system: [{ type: "text", text: "Be brief." }],
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    });
    expect(request.headers).not.toHaveProperty("anthropic-version");
    expect(request.headers.authorization).toMatch(/^Bearer ya29\.unit-\d+$/);
    const streamed = await model.buildRequest(messages, { stream: true });
    expect(streamed.url).toMatch(/claude-sonnet-4@20250514:streamRawPredict$/);
    expect(streamed.body.stream).toBe(true);
    expect(await model.generate(messages)).toMatchObject({
      text: "Bonjour",
      finishReason: "stop",
      rawFinishReason: "end_turn",
      usage: { inputTokens: 9, outputTokens: 2 },
    });
  });

  it("takes anthropic_version and base_url as given (BAML's documented Claude setup)", async () => {
    const model = createLanguageModel(
      "vertex-ai",
      {
        model: "claude-3-5-haiku",
        anthropic_version: "vertex-2099-01-01",
        base_url:
          "https://europe-west1-aiplatform.googleapis.com/v1/projects/p/locations/europe-west1/publishers/anthropic/models",
        authorization: "ya29.given",
        max_tokens: 512,
      },
      { fetch: claudeFetch() },
    );
    const request = await model.buildRequest(messages, { stream: false });
    expect(request.url).toBe(
      "https://europe-west1-aiplatform.googleapis.com/v1/projects/p/locations/europe-west1/publishers/anthropic/models/claude-3-5-haiku:rawPredict",
    );
    expect(request.body).toMatchObject({ anthropic_version: "vertex-2099-01-01", max_tokens: 512 });
    expect(request.body).not.toHaveProperty("model");
    expect(request.headers.authorization).toBe("Bearer ya29.given");
  });
});
