import { describe, expect, it } from "vitest";
import { BamlClientHttpError, SaplingStream } from "../runtime/index.js";
import { readStream, StreamEventError } from "./read-stream.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

/** A response whose body arrives in pieces of `size` bytes. */
function response(text: string, contentType: string, size: number, status = 200): Response {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
  return new Response(body, { status, headers: { "content-type": contentType } });
}

async function collect<P, F>(stream: ReturnType<typeof readStream<P, F>>) {
  const partials: P[] = [];
  for await (const partial of stream) partials.push(partial);
  return { partials, final: await stream.getFinalResponse() };
}

describe("readStream", () => {
  it("rebuilds partials from toStreamable's NDJSON in either format, the same ones", async () => {
    const results: unknown[] = [];
    for (const format of ["partial", "delta"] as const) {
      const stream = new SaplingStream<{ name: string; tags: string[] }, unknown>(async (sink) => {
        sink.emit({ name: "Ad", tags: [] });
        await tick();
        sink.emit({ name: "Ada Lovelace", tags: ["math"] });
        await tick();
        sink.emit({ name: "Ada Lovelace", tags: ["math", "poetry"] });
        return { name: "Ada Lovelace", tags: ["math", "poetry"], done: true };
      });
      const body = await new Response(stream.toStreamable({ format })).text();
      // One byte at a time: events and UTF-8 split anywhere.
      results.push(await collect(readStream(response(body, "application/x-ndjson", 1))));
    }
    expect(results[0]).toEqual({
      partials: [
        { name: "Ad", tags: [] },
        { name: "Ada Lovelace", tags: ["math"] },
        { name: "Ada Lovelace", tags: ["math", "poetry"] },
      ],
      final: { name: "Ada Lovelace", tags: ["math", "poetry"], done: true },
    });
    expect(results[1]).toEqual(results[0]);
  });

  it("reads server-sent events with CRLF lines, comments and multi-line data", async () => {
    const text =
      ': keep-alive\r\n\r\nevent: partial\r\ndata: {"a":\r\ndata: "x"}\r\n\r\n' +
      'data: ["é"]\r\n\r\nevent: future\r\ndata: 1\r\n\r\nevent: final\r\ndata: {"delta":[["+",["a"],"!"]]}\r\n\r\n';
    // A delta after a whole partial: the bare append needs a string written before it by a delta.
    const delta = text.replace('data: ["é"]', 'data: [["+",["a"],"é"]]');
    const { partials, final } = await collect(readStream(response(delta, "text/event-stream", 3)));
    expect(partials.at(-1)).toEqual({ a: "xé" });
    expect(final).toEqual({ a: "xé!" });
  });

  it("throws error events and non-2xx answers as StreamEventError", async () => {
    const failing = new SaplingStream<number, number>(async (sink) => {
      sink.emit(1);
      await tick();
      throw new BamlClientHttpError("HTTP 429", "Main", "openai", 429, "");
    });
    const body = await new Response(failing.toStreamable()).text();
    const stream = readStream<number, number>(response(body, "application/x-ndjson", 7));
    const seen: number[] = [];
    const error = await (async () => {
      for await (const partial of stream) seen.push(partial);
    })().catch((caught: unknown) => caught);
    expect(seen).toEqual([1]);
    expect(error).toBeInstanceOf(StreamEventError);
    expect((error as StreamEventError).code).toBe("CLIENT_HTTP_ERROR");
    await expect(stream.getFinalResponse()).rejects.toBe(error);

    const refused = readStream(
      response(
        '{"error":{"status":401,"code":"UNAUTHORIZED","message":"no key"}}',
        "application/json",
        64,
        401,
      ),
    );
    await expect(refused.getFinalResponse()).rejects.toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    const cut = readStream(response('{"partial":1}\n', "application/x-ndjson", 64));
    await expect(cut.getFinalResponse()).rejects.toThrow(/without a final or error event/);
  });

  it("hands a slow consumer the latest partial, applying what arrived at once", async () => {
    const lines = [`{"delta":[["=",[],[]]]}`];
    for (let index = 0; index < 100; index++) lines.push(`{"delta":[["+",[],[${index}]]]}`);
    lines.push(`{"final":{"delta":[]}}`);
    const stream = readStream<number[], number[]>(
      response(`${lines.join("\n")}\n`, "application/x-ndjson", 1 << 16),
    );
    const { partials, final } = await collect(stream);
    expect(partials).toHaveLength(1);
    expect(final).toHaveLength(100);
  });
});
