import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeSseStream, SseDecoder, type SseEvent } from "./sse-decoder.js";

function decodeAll(chunks: readonly string[]): SseEvent[] {
  const decoder = new SseDecoder();
  return [...chunks.flatMap((chunk) => decoder.push(chunk)), ...decoder.end()];
}

function splitAt(text: string, points: readonly number[]): string[] {
  const sorted = [...new Set(points)]
    .filter((point) => point > 0 && point < text.length)
    .sort((a, b) => a - b);
  const chunks: string[] = [];
  let start = 0;
  for (const point of sorted) {
    chunks.push(text.slice(start, point));
    start = point;
  }
  chunks.push(text.slice(start));
  return chunks;
}

describe("SseDecoder", () => {
  it("dispatches an event on a blank line and drops one leading space", () => {
    expect(decodeAll(['data: {"a":1}\n\ndata:{"b":2}\n\n'])).toEqual([
      { data: '{"a":1}' },
      { data: '{"b":2}' },
    ]);
  });

  it("accepts \\r\\n, \\n and \\r line endings, even mixed", () => {
    expect(decodeAll(["data: one\r\n\r\ndata: two\n\ndata: three\r\rdata: four\r\n\n"])).toEqual([
      { data: "one" },
      { data: "two" },
      { data: "three" },
      { data: "four" },
    ]);
  });

  it("joins multi-line data with \\n", () => {
    expect(decodeAll(["data: first\ndata: second\ndata\ndata: third\n\n"])).toEqual([
      { data: "first\nsecond\n\nthird" },
    ]);
  });

  it("ignores comments, unknown fields and events without data", () => {
    expect(decodeAll([": keep-alive\n\nfoo: bar\nevent: ping\n\n:comment\ndata: x\n\n"])).toEqual([
      { data: "x" },
    ]);
  });

  it("keeps the event name, id and retry; the name resets after each event, the id does not", () => {
    expect(decodeAll(["event: message_start\nid: 7\nretry: 1500\ndata: a\n\ndata: b\n\n"])).toEqual([
      { event: "message_start", id: "7", retry: 1500, data: "a" },
      { id: "7", retry: 1500, data: "b" },
    ]);
  });

  it("keeps a colon inside the value and only strips one space", () => {
    expect(decodeAll(['data:  {"time": "12:30"}\n\n'])).toEqual([{ data: ' {"time": "12:30"}' }]);
  });

  it("strips a leading byte order mark", () => {
    expect(decodeAll(["\uFEFFdata: x\n\n"])).toEqual([{ data: "x" }]);
  });

  it("dispatches a last event that lacks its final blank line at the end of the stream", () => {
    expect(decodeAll(["data: [DONE]"])).toEqual([{ data: "[DONE]" }]);
  });

  it("treats \\r at a chunk end and \\n at the next chunk start as one line break", () => {
    expect(decodeAll(["data: a\r", "\n\r", "\ndata: b\r", "", "\n\r\n"])).toEqual([
      { data: "a" },
      { data: "b" },
    ]);
  });

  it("gives the same events for every split of a transcript (property)", () => {
    const transcript =
      'event: message_start\r\ndata: {"type":"message_start"}\r\n\r\n: ping\n\nevent: delta\ndata: {"text":"é ✓ 12:30"}\ndata: second line\n\n' +
      "data: [DONE]\r\r";
    const whole = decodeAll([transcript]);
    expect(whole).toHaveLength(3);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: transcript.length }), { maxLength: 40 }), (points) => {
        expect(decodeAll(splitAt(transcript, points))).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });
});

describe("decodeSseStream", () => {
  it("decodes bytes split inside a multi-byte UTF-8 sequence", async () => {
    const bytes = new TextEncoder().encode('data: {"text":"née ✓"}\n\n');
    const chunks = [bytes.subarray(0, 17), bytes.subarray(17, 21), bytes.subarray(21)];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    const events: SseEvent[] = [];
    const reader = decodeSseStream(body).getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) events.push(next.value);
    expect(events).toEqual([{ data: '{"text":"née ✓"}' }]);
  });
});
