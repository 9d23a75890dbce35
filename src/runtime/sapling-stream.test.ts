import { describe, expect, it } from "vitest";
import { BamlClientHttpError } from "./errors.js";
import { SaplingStream } from "./sapling-stream.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk);
  return text;
}

describe("SaplingStream", () => {
  it("yields each distinct partial in order, then resolves the final value", async () => {
    const stream = new SaplingStream<{ name: string | null }, { name: string }>(async (emit) => {
      emit({ name: null });
      await tick();
      emit({ name: "A" });
      emit({ name: "A" });
      await tick();
      emit({ name: "Ad" });
      return { name: "Ada" };
    });
    const seen: unknown[] = [];
    for await (const partial of stream) seen.push(partial);
    expect(seen).toEqual([{ name: null }, { name: "A" }, { name: "Ad" }]);
    expect(await stream.getFinalResponse()).toEqual({ name: "Ada" });
  });

  it("starts once, even when iterated and awaited together", async () => {
    let starts = 0;
    const stream = new SaplingStream<number, number>(async (emit) => {
      starts++;
      emit(1);
      return 2;
    });
    const [final] = await Promise.all([
      stream.getFinalResponse(),
      (async () => {
        for await (const _ of stream) void _;
      })(),
    ]);
    expect([final, starts]).toEqual([2, 1]);
  });

  it("throws the call's error from the iterator after the partials that came first", async () => {
    const failure = new BamlClientHttpError("HTTP 500", "Main", "openai", 500, "");
    const stream = new SaplingStream<number, number>(async (emit) => {
      emit(1);
      await tick();
      throw failure;
    });
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const partial of stream) seen.push(partial);
      })(),
    ).rejects.toBe(failure);
    expect(seen).toEqual([1]);
    await expect(stream.getFinalResponse()).rejects.toBe(failure);
  });

  it("writes NDJSON partial and final lines, or an error line", async () => {
    const ok = new SaplingStream<string[], string[]>(async (emit) => {
      emit(["a"]);
      return ["a", "b"];
    });
    expect(await readAll(ok.toStreamable())).toBe('{"partial":["a"]}\n{"final":["a","b"]}\n');
    const failing = new SaplingStream<string, string>(async () => {
      throw new BamlClientHttpError("HTTP 429", "Main", "openai", 429, "");
    });
    expect(await readAll(failing.toStreamable())).toBe(
      '{"error":{"name":"BamlClientHttpError","code":"CLIENT_HTTP_ERROR","message":"HTTP 429"}}\n',
    );
  });
});
