/**
 * The mock server's Google token endpoint and Vertex AI paths, through the real vertex-ai provider over a
 * real socket, and through raw requests for what the provider never sends (wrong grants, bad audiences).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLanguageModel as createAnyLanguageModel } from "../llm/create-language-model.js";
import type { ModelStreamEvent } from "../llm/index.js";
import { LlmHttpError } from "../provider-helpers/index.js";
import type { ChatMessage } from "../util/index.js";
import { vertexAi } from "../vertex-ai/index.js";
import { createTestServiceAccount, type TestServiceAccount } from "./create-test-service-account.js";
import { answer } from "./mock-answer.js";
import { type MockLlmServer, startMockLlmServer } from "./start-mock-llm-server.js";

/** `createLanguageModel` given the vertex-ai adapter (sapling-llm/vertex-ai), as the runtime gives it. */
const createLanguageModel: typeof createAnyLanguageModel = (provider, options, dependencies) =>
  createAnyLanguageModel(provider, options, { ...dependencies, providers: [vertexAi] });

const messages: ChatMessage[] = [{ role: "user", parts: [{ type: "text", text: "Say hello." }] }];
let server: MockLlmServer;
let account: TestServiceAccount;

beforeAll(async () => {
  server = await startMockLlmServer();
  account = await createTestServiceAccount({
    tokenUri: server.tokenEndpoint.tokenUri,
    projectId: "mock-project",
  });
  server.tokenEndpoint.trust(account.publicKey);
});
afterAll(() => server.close());

const vertexOptions = () => ({
  model: "gemini-2.5-flash",
  location: "us-central1",
  base_url: server.vertexModelsUrl("mock-project", "us-central1"),
  credentials: account.keyFile,
});

async function post(path: string, body: string, contentType: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": contentType, ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("mock Google token endpoint", () => {
  it("exchanges a signed service-account JWT for a token the Vertex paths accept", async () => {
    server.scriptFor("gemini", answer("Hello from Vertex.", { usage: { inputTokens: 5, outputTokens: 4 } }));
    const before = server.tokenEndpoint.requests.length;
    const model = createLanguageModel("vertex-ai", vertexOptions(), { fetch });
    const result = await model.generate(messages);
    expect(result).toMatchObject({ text: "Hello from Vertex.", usage: { inputTokens: 5, outputTokens: 4 } });
    const token = server.tokenEndpoint.requests[before];
    expect(token).toMatchObject({
      grantType: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      header: { alg: "RS256", kid: "test-key-1" },
      claims: {
        iss: account.keyFile.client_email,
        scope: "https://www.googleapis.com/auth/cloud-platform",
        aud: server.tokenEndpoint.tokenUri,
      },
    });
    const request = server.requests.at(-1);
    expect(request).toMatchObject({
      route: "gemini",
      path: "/v1/projects/mock-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent",
      model: "gemini-2.5-flash",
      stream: false,
    });
    expect(request?.headers.authorization).toBe(`Bearer ${token?.accessToken}`);
  });

  it("streams on :streamGenerateContent?alt=sse in the Gemini format", async () => {
    server.scriptFor("gemini", answer("Streamed from Vertex.", { chunkSize: 5 }));
    const model = createLanguageModel("vertex-ai", vertexOptions(), { fetch });
    const deltas: string[] = [];
    let finish: ModelStreamEvent | undefined;
    for await (const event of model.stream(messages)) {
      if (event.type === "text-delta") deltas.push(event.text);
      if (event.type === "finish") finish = event;
    }
    expect(deltas.join("")).toBe("Streamed from Vertex.");
    expect(deltas.length).toBeGreaterThan(1);
    expect(finish).toMatchObject({ finishReason: "stop", rawFinishReason: "STOP" });
    expect(server.requests.at(-1)).toMatchObject({ stream: true, query: { alt: "sse" } });
  });

  it("refuses a JWT signed by a key it does not trust, as Google does", async () => {
    const stranger = await createTestServiceAccount({
      tokenUri: server.tokenEndpoint.tokenUri,
      clientEmail: "stranger@mock-project.iam.gserviceaccount.com",
    });
    const model = createLanguageModel(
      "vertex-ai",
      { ...vertexOptions(), credentials: stranger.keyFile },
      { fetch },
    );
    const error = await model.generate(messages).catch((caught: unknown) => caught);
    expect(LlmHttpError.isInstance(error)).toBe(true);
    expect((error as LlmHttpError).status).toBe(400);
    expect(String(error)).toContain("stranger@mock-project.iam.gserviceaccount.com");
    expect(String(error)).toContain("invalid_grant: Invalid JWT Signature.");
    expect(server.tokenEndpoint.requests.at(-1)?.error).toBe("invalid_grant");
  });

  it("fails the next token request on demand (a 503 from Google is retryable)", async () => {
    const other = await createTestServiceAccount({
      tokenUri: server.tokenEndpoint.tokenUri,
      clientEmail: "flaky@mock-project.iam.gserviceaccount.com",
    });
    server.tokenEndpoint.trust(other.publicKey);
    server.tokenEndpoint.failNext(503, "temporarily_unavailable", "Try again later.");
    server.scriptFor("gemini", answer("second try"));
    const model = createLanguageModel(
      "vertex-ai",
      { ...vertexOptions(), credentials: other.keyFile },
      { fetch },
    );
    const error = await model.generate(messages).catch((caught: unknown) => caught);
    expect((error as LlmHttpError).status).toBe(503);
    expect(String(error)).toMatch(/a retry_policy can recover/);
    expect((await model.generate(messages)).text).toBe("second try");
  });

  it.each([
    ["a JSON body", JSON.stringify({ grant_type: "x" }), "application/json", "invalid_request"],
    [
      "another grant type",
      "grant_type=client_credentials",
      "application/x-www-form-urlencoded",
      "unsupported_grant_type",
    ],
    [
      "an assertion that is not a JWT",
      "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=abc",
      "application/x-www-form-urlencoded",
      "invalid_grant",
    ],
  ])("answers 400 to %s", async (_name, body, contentType, error) => {
    const answered = await post("/token", body, contentType);
    expect(answered.status).toBe(400);
    expect(answered.body.error).toBe(error);
  });

  it("checks the audience and the lifetime of the JWT's claims", async () => {
    const encode = (value: unknown) =>
      btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    const now = Math.floor(Date.now() / 1000);
    const form = (claims: Record<string, unknown>) =>
      new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: `${encode({ alg: "RS256", typ: "JWT" })}.${encode(claims)}.c2ln`,
      }).toString();
    const claims = { iss: "a@b", scope: "s", aud: server.tokenEndpoint.tokenUri, iat: now, exp: now + 3600 };
    const wrongAudience = await post(
      "/token",
      form({ ...claims, aud: "https://elsewhere/token" }),
      "application/x-www-form-urlencoded",
    );
    expect(wrongAudience.body.error_description).toMatch(/Invalid JWT audience/);
    const tooLong = await post(
      "/token",
      form({ ...claims, exp: now + 7200 }),
      "application/x-www-form-urlencoded",
    );
    expect(tooLong.body.error_description).toMatch(/short-lived token/);
  });
});

describe("mock Vertex AI paths", () => {
  const path =
    "/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent";
  const body = JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] });

  it("answer 401 UNAUTHENTICATED without a token the endpoint issued", async () => {
    for (const headers of [{}, { authorization: "Bearer ya29.forged" }] as Record<string, string>[]) {
      const answered = await post(path, body, "application/json", headers);
      expect(answered.status).toBe(401);
      expect(answered.body.error).toMatchObject({ code: 401, status: "UNAUTHENTICATED" });
    }
  });

  it("let an express-mode API key in", async () => {
    server.scriptFor("gemini", answer("keyed"));
    const answered = await post(`${path}?key=vertex-express-key`, body, "application/json");
    expect(answered.status).toBe(200);
    expect(JSON.stringify(answered.body)).toContain("keyed");
  });
});
