import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { ClientRegistry } from "./client-registry.js";
import { addUsage, Collector, emptyUsage, type FunctionLog } from "./collector.js";
import { Audio, Image, Pdf, Video } from "./media.js";

function log(id: string, inputTokens: number | null): FunctionLog {
  return {
    id,
    functionName: "Fn",
    logType: "call",
    timing: { startTimeUtcMs: 0, durationMs: 1 },
    usage: { ...emptyUsage(), inputTokens, outputTokens: 2 },
    calls: [],
    selectedCall: null,
    rawLlmResponse: null,
    tags: {},
    error: null,
    repairs: [],
    truncated: false,
    incompleteFields: [],
    toolCalls: [],
    costUsd: null,
  };
}

describe("Collector", () => {
  it("keeps logs in order, finds them by id, sums usage and clears", () => {
    const collector = new Collector("mine");
    expect(collector.last).toBeNull();
    collector.record(log("a", 10));
    collector.record(log("b", null));
    expect(collector.last?.id).toBe("b");
    expect(collector.id("a")?.id).toBe("a");
    expect(collector.id("zzz")).toBeNull();
    expect(collector.usage).toEqual({ ...emptyUsage(), inputTokens: 10, outputTokens: 4 });
    expect(collector.clear()).toBe(2);
    expect(collector.logs).toEqual([]);
  });

  it("counts the logs collectors hold (BAML's __functionSpanCount) until cleared or collected", async () => {
    const before = Collector.__functionSpanCount();
    const kept = new Collector();
    kept.record(log("a", 1));
    kept.record(log("b", 1));
    expect(Collector.__functionSpanCount()).toBe(before + 2);
    expect(kept.clear()).toBe(2);
    expect(Collector.__functionSpanCount()).toBe(before);
    // A collector nobody holds any more leaves the count once it is garbage-collected.
    (() => {
      const dropped = new Collector();
      dropped.record(log("c", 1));
    })();
    expect(Collector.__functionSpanCount()).toBe(before + 1);
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    for (let turn = 0; turn < 50 && Collector.__functionSpanCount() !== before; turn++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(Collector.__functionSpanCount()).toBe(before);
  });

  it("adds usage, treating unreported counts as absent rather than zero", () => {
    expect(addUsage(emptyUsage(), null)).toEqual(emptyUsage());
    const left = { ...emptyUsage(), inputTokens: 1, cachedInputTokens: 3, reasoningTokens: 2 };
    expect(addUsage(left, emptyUsage())).toEqual(left);
    expect(addUsage(left, { ...emptyUsage(), cacheWriteInputTokens: 5, reasoningTokens: 1 })).toEqual({
      ...left,
      cacheWriteInputTokens: 5,
      reasoningTokens: 3,
    });
  });
});

describe("ClientRegistry", () => {
  it("stores clients as IR data with literal (never env) option values", () => {
    const registry = new ClientRegistry();
    registry.addLlmClient(
      "Fast",
      "openai",
      { model: "gpt-4o-mini", api_key: "env.NOT_A_REFERENCE", stop: ["x"], skip: undefined },
      "Retry",
    );
    registry.setPrimary("Fast");
    expect(registry.primary).toBe("Fast");
    expect(registry.getClient("Fast")).toEqual({
      name: "Fast",
      provider: "openai",
      retryPolicy: "Retry",
      options: {
        model: { kind: "string", value: "gpt-4o-mini" },
        api_key: { kind: "string", value: "env.NOT_A_REFERENCE" },
        stop: { kind: "array", items: [{ kind: "string", value: "x" }] },
      },
    });
    expect(() => registry.addLlmClient("Bad", "openai", { fn: () => 1 })).toThrow(
      /Client option Bad\.fn is a function/,
    );
  });
});

describe("media", () => {
  it("produces util MediaValue data from URLs and base64 (data: prefixes removed)", () => {
    expect(Image.fromUrl("https://x.test/a.png").toJSON()).toEqual({
      kind: "media",
      type: "image",
      url: "https://x.test/a.png",
    });
    expect(JSON.parse(JSON.stringify(Audio.fromBase64("audio/mp3", "data:audio/mp3;base64,QUJD")))).toEqual({
      kind: "media",
      type: "audio",
      base64: "QUJD",
      mediaType: "audio/mp3",
    });
    expect(Pdf.fromUrl("https://x.test/a.pdf").mediaType).toBe("application/pdf");
    // BAML's Pdf.fromBase64 takes only the bytes; the two-argument form of the other media works too.
    expect(Pdf.fromBase64("JVBERi0x").toJSON()).toEqual(
      Pdf.fromBase64("application/pdf", "JVBERi0x").toJSON(),
    );
    expect(Pdf.fromBase64("JVBERi0x").toJSON()).toMatchObject({
      base64: "JVBERi0x",
      mediaType: "application/pdf",
    });
    expect([Video.fromUrl("u").type, Video.fromUrl("u").isUrl()]).toEqual(["video", true]);
  });
});
