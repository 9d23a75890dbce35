import { describe, expect, it } from "vitest";
import { resolveProviderName } from "../provider-table/index.js";
import { createReplayFetch } from "../testing/index.js";
import { createLanguageModel } from "./create-language-model.js";
import { LlmError } from "./llm-error.js";

const fetch = createReplayFetch(() => ({ body: "{}" }));
const messages = [{ role: "user", parts: [{ type: "text" as const, text: "hi" }] }];

function optionsError(run: () => unknown): LlmError {
  try {
    run();
  } catch (error) {
    if (LlmError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an options error");
}

describe("createLanguageModel", () => {
  it("builds openai-transcriptions models that, as in BAML, do not stream unless told to", () => {
    const model = createLanguageModel("openai-transcriptions", { model: "whisper-1" }, { fetch });
    expect(model).toMatchObject({ modelId: "whisper-1", supportsStreaming: false });
    const streaming = createLanguageModel(
      "openai-transcriptions",
      { model: "whisper-1", supports_streaming: true },
      { fetch },
    );
    expect(streaming).toMatchObject({ supportsStreaming: true });
  });

  it.each([
    ["an unknown provider", "open-ai", {}, "provider"],
    ["openai-generic without base_url", "openai-generic", {}, "base_url"],
    [
      "azure-openai without api_version",
      "azure-openai",
      { resource_name: "r", deployment_id: "d" },
      "api_version",
    ],
    [
      "azure-openai without resource or base_url",
      "azure-openai",
      { api_version: "2024-10-21" },
      "resource_name",
    ],
    ["a non-string model", "openai", { model: 4 }, "model"],
    ["headers that are not a map", "openai", { headers: ["a"] }, "headers"],
    ["an unknown http timeout", "openai", { http: { read_timeout_ms: 5 } }, "http.read_timeout_ms"],
    ["a negative timeout", "openai", { http: { idle_timeout_ms: -1 } }, "http.idle_timeout_ms"],
    [
      "a default_role outside allowed_roles",
      "openai",
      { allowed_roles: ["user"], default_role: "system" },
      "default_role",
    ],
    [
      "an unknown media_url_handler mode",
      "openai",
      { media_url_handler: { image: "inline" } },
      "media_url_handler.image",
    ],
    [
      "supports_streaming that is not a boolean",
      "openai",
      { supports_streaming: "yes" },
      "supports_streaming",
    ],
  ])("rejects %s, naming the option", (_label, provider, options, option) => {
    const error = optionsError(() => createLanguageModel(provider, options, { fetch }));
    expect(error).toMatchObject({ code: "llm_invalid_options", option });
    expect(error.message).toContain(option.split(".")[0]);
  });

  it("reads the provider's default key from env only when api_key is absent", async () => {
    const env = { OPENAI_API_KEY: "sk-from-env", ANTHROPIC_API_KEY: "sk-ant-env" };
    const fromEnv = await createLanguageModel("openai", {}, { fetch, env }).buildRequest(messages, {
      stream: false,
    });
    expect(fromEnv.headers.authorization).toBe("Bearer sk-from-env");
    const explicit = await createLanguageModel(
      "openai",
      { api_key: "sk-explicit" },
      { fetch, env },
    ).buildRequest(messages, { stream: false });
    expect(explicit.headers.authorization).toBe("Bearer sk-explicit");
    const anthropic = await createLanguageModel("anthropic", {}, { fetch, env }).buildRequest(messages, {
      stream: false,
    });
    expect(anthropic.headers["x-api-key"]).toBe("sk-ant-env");
    const none = await createLanguageModel("ollama", {}, { fetch, env }).buildRequest(messages, {
      stream: false,
    });
    expect(none.headers).not.toHaveProperty("authorization");
  });

  it("accepts BAML's legacy provider names", () => {
    expect(resolveProviderName("baml-openai-chat")).toBe("openai");
    expect(resolveProviderName("baml-anthropic-chat")).toBe("anthropic");
    expect(resolveProviderName("vertex-ai")).toBe("vertex-ai");
    expect(resolveProviderName("aws-bedrock")).toBe("aws-bedrock");
    expect(resolveProviderName("aws-sagemaker")).toBeUndefined();
    expect(createLanguageModel("baml-ollama-chat", {}, { fetch }).provider).toBe("ollama");
  });

  it("lets the call decide streaming even if options say stream or stream_options", async () => {
    const model = createLanguageModel(
      "openai",
      { stream: true, stream_options: { include_usage: false } },
      { fetch },
    );
    const whole = await model.buildRequest(messages, { stream: false });
    // A written `stream` keeps its place in the body (as in BAML) with the call's value.
    expect(whole.body).toHaveProperty("stream", false);
    expect(whole.body).not.toHaveProperty("stream_options");
    const streamed = await model.buildRequest(messages, { stream: true });
    expect(streamed.body).toMatchObject({ stream: true, stream_options: { include_usage: false } });
  });

  it("a client's header replaces the default one of the same name, whatever its case", async () => {
    const model = createLanguageModel(
      "anthropic",
      { headers: { "Anthropic-Version": "2024-01-01" } },
      { fetch },
    );
    const request = await model.buildRequest(messages, { stream: false });
    expect(request.headers["anthropic-version"]).toBe("2024-01-01");
    expect(
      Object.keys(request.headers).filter((name) => name.toLowerCase() === "anthropic-version"),
    ).toHaveLength(1);
  });

  it("azure-openai with base_url needs no resource_name and sends a given model as is", async () => {
    const model = createLanguageModel(
      "azure-openai",
      {
        base_url: "https://proxy.test/deployments/d1",
        api_version: "2024-10-21",
        model: "ignored",
        api_key: "k",
      },
      { fetch },
    );
    const request = await model.buildRequest(messages, { stream: false });
    expect(request.url).toBe("https://proxy.test/deployments/d1/chat/completions?api-version=2024-10-21");
    expect(request.headers["api-key"]).toBe("k");
    expect(request.body).toHaveProperty("model", "ignored");
  });

  it("openai-generic with client_response_type reads another provider's answer format", async () => {
    const gateway = createReplayFetch(() => ({
      body: JSON.stringify({
        content: [{ type: "text", text: "from claude" }],
        model: "claude-x",
        stop_reason: "end_turn",
        usage: { input_tokens: 4, output_tokens: 2 },
      }),
    }));
    const model = createLanguageModel(
      "openai-generic",
      { base_url: "http://gateway.test/v1", model: "claude-x", client_response_type: "anthropic" },
      { fetch: gateway },
    );
    const result = await model.generate(messages);
    expect(result).toMatchObject({
      text: "from claude",
      rawFinishReason: "end_turn",
      usage: { inputTokens: 4 },
    });
    expect(gateway.calls[0]?.url).toBe("http://gateway.test/v1/chat/completions");
    expect(gateway.calls[0]?.body).not.toHaveProperty("client_response_type");
    expect(
      optionsError(() =>
        createLanguageModel(
          "openai-generic",
          { base_url: "http://g.test", client_response_type: "cohere" },
          { fetch },
        ),
      ),
    ).toMatchObject({ option: "client_response_type" });
  });

  it("google-ai accepts model names with Google's models/ prefix", async () => {
    const model = createLanguageModel("google-ai", { model: "models/gemini-2.5-pro" }, { fetch });
    const request = await model.buildRequest(messages, { stream: true });
    expect(request.url).toBe(
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
    );
    expect(model.modelId).toBe("gemini-2.5-pro");
  });

  it("exposes the finish-reason policy", () => {
    const allow = createLanguageModel("openai", { finish_reason_allow_list: ["stop"] }, { fetch });
    expect(allow.isFinishReasonAllowed("stop")).toBe(true);
    expect(allow.isFinishReasonAllowed("length")).toBe(false);
    expect(allow.finishReasonPolicy).toEqual({ allowList: ["stop"] });
  });
});
