import { describe, expect, it } from "vitest";
import { SaplingStream, type StreamSink } from "../runtime/index.js";
import { readStream } from "../stream-client/index.js";
import { streamResponse } from "./stream-response.js";

/** A call whose chunks the test sends: each chunk adds a word to a list (the partial value). */
function controlledCall() {
  let sink!: StreamSink;
  let finish!: (value: string[]) => void;
  let ready!: () => void;
  const started = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const words: string[] = [];
  let builds = 0;
  const stream = new SaplingStream<string[], string[]>((given) => {
    sink = given;
    ready();
    return new Promise<string[]>((resolve) => {
      finish = resolve;
    });
  });
  return {
    stream,
    started,
    chunk: (word: string) => {
      words.push(word);
      sink.offer(() => {
        builds++;
        return { changed: true, value: [...words] };
      });
    },
    end: () => finish([...words]),
    builds: () => builds,
  };
}

const decoder = new TextDecoder();

describe("streamResponse", () => {
  for (const format of ["partial", "delta"] as const) {
    it(`coalesces while the reader is away (${format} format): one event per read, never a backlog`, async () => {
      const call = controlledCall();
      const response = streamResponse(call.stream, { onCancel: () => {}, format });
      const reader = response.body!.getReader();
      let bytes = 0;
      let events = 0;
      const read = async () => {
        const { value } = await reader.read();
        const text = decoder.decode(value);
        bytes += value?.length ?? 0;
        events += text.split("\n\n").length - 1;
        return text;
      };
      const first = read();
      await call.started;
      call.chunk("w0");
      await first;
      // A socket that stays full for a thousand chunks: they build no partial and queue no event.
      for (let index = 1; index <= 1000; index++) call.chunk(`w${index}`);
      expect(call.builds()).toBe(1);
      await read();
      call.end();
      const last = await read();
      expect(last.startsWith("event: final\n")).toBe(true);
      expect((await reader.read()).done).toBe(true);
      expect(events).toBe(3);
      expect(call.builds()).toBe(2);
      // The answer is 1001 words of 2–5 characters; three events carry it about once (delta) or twice.
      expect(bytes).toBeLessThan(format === "delta" ? 12_000 : 20_000);
    });
  }

  it("hands readStream the same partials and final value in either format", async () => {
    const results: unknown[] = [];
    for (const format of ["partial", "delta"] as const) {
      const call = controlledCall();
      const response = streamResponse(call.stream, { onCancel: () => {}, format });
      const stream = readStream<string[], string[]>(response);
      const seen: string[][] = [];
      const reading = (async () => {
        for await (const partial of stream) seen.push(partial);
      })();
      await call.started;
      for (let index = 0; index < 50; index++) {
        call.chunk(`w${index}`);
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      call.end();
      await reading;
      expect(seen.at(-1)).toHaveLength(50);
      // Partials handed out are never changed by later events.
      expect(seen.every((partial, index) => index === 0 || partial.length >= seen[index - 1]!.length)).toBe(
        true,
      );
      results.push(await stream.getFinalResponse());
    }
    expect(results[0]).toEqual(results[1]);
  });
});
