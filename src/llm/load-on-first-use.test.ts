import { afterEach, describe, expect, it, vi } from "vitest";
import { LlmError, LlmLoadError } from "./llm-error.js";
import { loadLanguageModel } from "./load-language-model.js";
import { loadOnFirstUse } from "./load-on-first-use.js";

describe("code loaded on first use", () => {
  it("hands back what the loader loaded", async () => {
    let loads = 0;
    const loaded = await loadOnFirstUse("the provider adapters", "openai", async () => {
      loads += 1;
      return { answer: 42 };
    });
    expect(loaded).toEqual({ answer: 42 });
    expect(loads).toBe(1);
  });

  it("says what failed to load, for which provider, and how to fix it, with the loader's error as cause", async () => {
    const missing = new TypeError(
      "Failed to fetch dynamically imported module: /assets/create-language-model-X.js",
    );
    const error = await loadOnFirstUse("the provider adapters", "anthropic", () =>
      Promise.reject(missing),
    ).catch((caught: unknown) => caught);
    expect(LlmLoadError.isInstance(error)).toBe(true);
    expect(LlmError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "llm_load_error",
      part: "the provider adapters",
      provider: "anthropic",
    });
    expect((error as Error).cause).toBe(missing);
    expect((error as Error).message).toMatch(
      /^anthropic: could not load the provider adapters, which Sapling loads on the first call that needs it: Failed to fetch dynamically imported module: \/assets\/create-language-model-X\.js\. A bundled application must serve the bundle's chunk files/,
    );
  });

  it("builds a model through the loaded module, and rejects bad options when the client is built", async () => {
    const fetch = async (): Promise<Response> => new Response("{}");
    const model = await loadLanguageModel("openai", { model: "gpt-4o-mini", api_key: "k" }, { fetch });
    expect(model.provider).toBe("openai");
    expect(model.modelId).toBe("gpt-4o-mini");
    await expect(loadLanguageModel("no-such-provider", {}, { fetch })).rejects.toMatchObject({
      code: "llm_invalid_options",
      option: "provider",
    });
    await expect(loadLanguageModel("openai-generic", { model: "m" }, { fetch })).rejects.toMatchObject({
      code: "llm_invalid_options",
      option: "base_url",
    });
  });
});

describe("prefetchLanguageModels", () => {
  afterEach(() => {
    vi.doUnmock("./create-language-model.js");
    vi.resetModules();
  });

  it("starts loading the adapters' module without waiting, and leaves a failure to loadLanguageModel", async () => {
    vi.resetModules();
    let loads = 0;
    vi.doMock("./create-language-model.js", () => {
      loads += 1;
      throw new Error("chunk missing");
    });
    const { prefetchLanguageModels, loadLanguageModel: load } = await import("./load-language-model.js");
    expect(prefetchLanguageModels()).toBeUndefined();
    await vi.waitFor(() => expect(loads).toBe(1));
    const fetch = async (): Promise<Response> => new Response("{}");
    await expect(load("openai", { model: "m" }, { fetch })).rejects.toMatchObject({ code: "llm_load_error" });
  });
});
