import { describe, expect, it } from "vitest";
import type { StreamPush } from "../sap/index.js";
import { applyDelta } from "../stream-client/index.js";
import { BamlClientHttpError } from "./errors.js";
import { SaplingStream, type StreamSink } from "./sapling-stream.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk);
  return text;
}

/** A producer whose chunks the test releases one by one; counts the partials built. */
function controlled() {
  let sink!: StreamSink;
  let release!: (value: string[]) => void;
  let ready!: () => void;
  const started = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const state = { builds: 0, text: [] as string[] };
  const stream = new SaplingStream<string[], string[]>((given) => {
    sink = given;
    ready();
    return new Promise<string[]>((resolve) => {
      release = resolve;
    });
  });
  const chunk = (word: string) => {
    state.text.push(word);
    sink.offer(() => {
      state.builds++;
      return { changed: true, value: [...state.text] };
    });
  };
  return { stream, started, chunk, end: () => release([...state.text, "."]), state, sink: () => sink };
}

describe("SaplingStream", () => {
  it("yields each distinct partial in order to a consumer that keeps up, then resolves the final value", async () => {
    const stream = new SaplingStream<{ name: string | null }, { name: string }>(async (sink) => {
      sink.emit({ name: null });
      await tick();
      sink.emit({ name: "A" });
      await tick();
      sink.emit({ name: "A" });
      await tick();
      sink.emit({ name: "Ad" });
      return { name: "Ada" };
    });
    const seen: unknown[] = [];
    for await (const partial of stream) seen.push(partial);
    expect(seen).toEqual([{ name: null }, { name: "A" }, { name: "Ad" }]);
    expect(await stream.getFinalResponse()).toEqual({ name: "Ada" });
  });

  it("starts once, even when iterated and awaited together", async () => {
    let starts = 0;
    const stream = new SaplingStream<number, number>(async (sink) => {
      starts++;
      sink.emit(1);
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
    const stream = new SaplingStream<number, number>(async (sink) => {
      sink.emit(1);
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

  it("hands a slow consumer the latest partial, building only the partials it reads", async () => {
    const { stream, started, chunk, end, state } = controlled();
    const iterator = stream[Symbol.asyncIterator]();
    const first = iterator.next();
    await started;
    chunk("a");
    expect((await first).value).toEqual(["a"]);
    // A thousand chunks arrive while the consumer is busy: none of them builds a partial.
    for (let index = 0; index < 1000; index++) chunk(`w${index}`);
    expect(state.builds).toBe(1);
    const latest = await iterator.next();
    expect((latest.value as string[]).length).toBe(1001);
    expect(state.builds).toBe(2);
    // The call ends before the consumer asks again: it still gets the last partial, then the end.
    chunk("z");
    end();
    expect((await iterator.next()).value).toEqual([...state.text]);
    expect((await iterator.next()).done).toBe(true);
    expect(state.builds).toBe(3);
    expect(await stream.getFinalResponse()).toEqual([...state.text, "."]);
  });

  it("never loses the error for a consumer that reads only after the call failed", async () => {
    const failure = new BamlClientHttpError("HTTP 503", "Main", "openai", 503, "");
    let builds = 0;
    const stream = new SaplingStream<number, number>(async (sink) => {
      for (let index = 1; index <= 500; index++) {
        sink.offer(() => {
          builds++;
          return { changed: true, value: index };
        });
      }
      throw failure;
    });
    await expect(stream.getFinalResponse()).rejects.toBe(failure);
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const partial of stream) seen.push(partial);
      })(),
    ).rejects.toBe(failure);
    expect(seen).toEqual([500]);
    expect(builds).toBe(1);
  });

  it("hands out at most one partial per interval with a rate limit, and the last one at once", async () => {
    let now = 0;
    const waits: number[] = [];
    let wake: (() => void) | undefined;
    let sink!: StreamSink;
    let finish!: (value: number) => void;
    const stream = new SaplingStream<number, number>(
      (given) => {
        sink = given;
        return new Promise<number>((resolve) => {
          finish = resolve;
        });
      },
      {
        partialIntervalMs: 100,
        clock: () => now,
        sleep: (ms) => {
          waits.push(ms);
          return new Promise<void>((resolve) => {
            wake = resolve;
          });
        },
      },
    );
    const iterator = stream[Symbol.asyncIterator]();
    const first = iterator.next();
    await tick();
    sink.emit(1);
    expect((await first).value).toBe(1);
    now = 30;
    const second = iterator.next();
    sink.emit(2);
    sink.emit(3);
    await tick();
    // Within the interval: the stream waits out the 70 ms left before building the next partial.
    expect(waits).toEqual([70]);
    now = 100;
    sink.emit(4);
    wake?.();
    expect((await second).value).toBe(4);
    now = 110;
    const third = iterator.next();
    sink.emit(5);
    await tick();
    expect(waits).toEqual([70, 90]);
    // The call ends during the wait: the last partial is not held back.
    finish(6);
    expect((await third).value).toBe(5);
    expect((await iterator.next()).done).toBe(true);
    expect(waits).toEqual([70, 90]);
  });

  it("by default keeps building partials within a fifth of the stream's time, after a 50 ms allowance", async () => {
    let now = 0;
    const waits: number[] = [];
    let wake: (() => void) | undefined;
    let sink!: StreamSink;
    let finish!: (value: number) => void;
    const builds: number[] = [];
    const stream = new SaplingStream<number, number>(
      (given) => {
        sink = given;
        return new Promise<number>((resolve) => {
          finish = resolve;
        });
      },
      {
        clock: () => now,
        measure: () => now,
        sleep: (ms) => {
          waits.push(ms);
          return new Promise<void>((resolve) => {
            wake = resolve;
          });
        },
      },
    );
    /** A partial whose build costs 20 ms on the stream's clock (the partial of a large answer). */
    const offer = (value: number) =>
      sink.offer(() => {
        now += 20;
        builds.push(value);
        return { changed: true, value };
      });
    const iterator = stream[Symbol.asyncIterator]();
    // Four builds fit: 60 ms spent by 60 ms is within the 50 ms allowance plus a fifth of 60.
    for (let value = 1; value <= 4; value += 1) {
      const next = iterator.next();
      await tick();
      offer(value);
      expect((await next).value).toBe(value);
    }
    expect(waits).toEqual([]);
    // 80 ms spent by 80 ms: 14 ms over (80 − 50 − 16), so the next build waits until the fifth is met,
    // 70 ms on; the chunks of that time are only offered, and one build reads the latest.
    const fifth = iterator.next();
    offer(5);
    offer(6);
    await tick();
    expect(waits).toEqual([70]);
    now = 150;
    wake?.();
    expect((await fifth).value).toBe(6);
    expect(builds).toEqual([1, 2, 3, 4, 6]);
    // 100 ms spent by 170 ms: 16 ms over (100 − 50 − 34), an 80 ms wait; the end of the call cuts it short.
    const last = iterator.next();
    offer(7);
    await tick();
    expect(waits).toEqual([70, 80]);
    finish(8);
    expect((await last).value).toBe(7);
    expect((await iterator.next()).done).toBe(true);
  });

  it("with partialIntervalMs: 0 builds a partial whenever the consumer asks, whatever it costs", async () => {
    let now = 0;
    const waits: number[] = [];
    let sink!: StreamSink;
    let finish!: (value: number) => void;
    const stream = new SaplingStream<number, number>(
      (given) => {
        sink = given;
        return new Promise<number>((resolve) => {
          finish = resolve;
        });
      },
      {
        partialIntervalMs: 0,
        clock: () => now,
        measure: () => now,
        sleep: async (ms) => {
          waits.push(ms);
        },
      },
    );
    const iterator = stream[Symbol.asyncIterator]();
    for (let value = 1; value <= 3; value += 1) {
      const next = iterator.next();
      await tick();
      sink.offer(() => {
        now += 50;
        return { changed: true, value };
      });
      expect((await next).value).toBe(value);
    }
    finish(4);
    expect((await iterator.next()).done).toBe(true);
    expect(waits).toEqual([]);
  });

  it("calls onPartial again only after its promise settled, then with the latest partial", async () => {
    const { stream, started, chunk, end, state } = controlled();
    const calls: number[] = [];
    let pending: (() => void) | undefined;
    const done = stream.onPartial((partial) => {
      calls.push(partial.length);
      return new Promise<void>((resolve) => {
        pending = resolve;
      });
    });
    await started;
    chunk("a");
    await tick();
    expect(calls).toEqual([1]);
    for (let index = 0; index < 300; index++) chunk("b");
    await tick();
    expect(calls).toEqual([1]);
    pending?.();
    await tick();
    expect(calls).toEqual([1, 301]);
    end();
    pending?.();
    expect(await done).toEqual([...state.text, "."]);
    expect(calls).toEqual([1, 301]);
    expect(state.builds).toBe(2);
  });

  it("aborts the call when the consumer stops reading, and when onPartial's callback throws", async () => {
    const { stream, started, chunk, sink } = controlled();
    await Promise.all([
      (async () => {
        for await (const _ of stream) break;
      })(),
      started.then(() => chunk("a")),
    ]);
    expect(sink().signal.aborted).toBe(true);

    const second = controlled();
    const failure = new Error("render failed");
    const done = second.stream.onPartial(() => {
      throw failure;
    });
    await second.started;
    second.chunk("a");
    await expect(done).rejects.toBe(failure);
    expect(second.sink().signal.aborted).toBe(true);
  });

  it("fails with the error of a partial that cannot be built, and stops the call", async () => {
    const { stream, started, sink } = controlled();
    const bug = new TypeError("partial parser exploded");
    const reading = (async () => {
      for await (const _ of stream) void _;
    })();
    await started;
    sink().offer(() => {
      throw bug;
    });
    await expect(reading).rejects.toBe(bug);
    expect(sink().signal.aborted).toBe(true);
  });

  it("takes a parser's changed for its own reads, and compares only where a read starts another source", async () => {
    // Partials that count every listing of their keys: a comparison by value has to list them. (Reading a
    // property is not counted: handing a value out of an async generator looks up its `then`.)
    let looks = 0;
    const watched = (value: Record<string, unknown>) =>
      new Proxy(value, {
        ownKeys: (target) => {
          looks++;
          return Reflect.ownKeys(target);
        },
        getOwnPropertyDescriptor: (target, key) => {
          looks++;
          return Reflect.getOwnPropertyDescriptor(target, key);
        },
      });
    /** A parser's read giving `pushes` in turn. */
    const reads = (pushes: StreamPush[]) => {
      let index = 0;
      return () => pushes[index++] ?? { changed: false, value: pushes.at(-1)?.value ?? null };
    };
    const a = watched({ name: "A" });
    const ad = watched({ name: "Ad" });
    const looked: number[] = [];
    const stream = new SaplingStream<unknown, string>(async (sink) => {
      const steps = async (read: () => StreamPush, count: number) => {
        for (let step = 0; step < count; step++) {
          sink.offer(read);
          await tick();
        }
        looked.push(looks);
      };
      // One attempt: nothing yet, a partial, no change, a change.
      await steps(
        reads([
          { changed: false, value: null },
          { changed: true, value: a },
          { changed: false, value: a },
          { changed: true, value: ad },
        ]),
        4,
      );
      // A retry's parser: its first partial equals the one held (compared: not handed out again), its next
      // is taken on its word; then a switch to nothing and back to an equal partial (compared again).
      await steps(
        reads([
          { changed: false, value: null },
          { changed: true, value: watched({ name: "Ad" }) },
          { changed: true, value: watched({ name: "Ada" }) },
          { changed: true, value: null },
          { changed: true, value: watched({ name: "Ada" }) },
        ]),
        5,
      );
      return "Ada";
    });
    const seen: unknown[] = [];
    for await (const partial of stream) seen.push(partial);
    expect(looked[0]).toBe(0);
    expect(looked[1]).toBeGreaterThan(0);
    expect(seen.map((partial) => JSON.stringify(partial))).toEqual([
      '{"name":"A"}',
      '{"name":"Ad"}',
      '{"name":"Ada"}',
    ]);
  });

  it("hands out an emitted null, but never a parser's null", async () => {
    const emitted = new SaplingStream<unknown, number>(async (sink) => {
      sink.emit(null);
      return 1;
    });
    const fromEmit: unknown[] = [];
    for await (const partial of emitted) fromEmit.push(partial);
    expect(fromEmit).toEqual([null]);
    const parsed = new SaplingStream<unknown, number>(async (sink) => {
      sink.offer(() => ({ changed: true, value: null }));
      return 1;
    });
    const fromParser: unknown[] = [];
    for await (const partial of parsed) fromParser.push(partial);
    expect(fromParser).toEqual([]);
  });

  it("writes NDJSON partial and final lines, or an error line", async () => {
    const ok = new SaplingStream<string[], string[]>(async (sink) => {
      sink.emit(["a"]);
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

  it("writes only what changed in the delta format, coalesced while the reader is away", async () => {
    const { stream, started, chunk, end, state } = controlled();
    const reader = stream.toStreamable({ format: "delta" }).getReader();
    const decoder = new TextDecoder();
    const line = async () =>
      JSON.parse(decoder.decode((await reader.read()).value)) as Record<string, unknown>;
    const first = line();
    await started;
    chunk("a");
    expect(await first).toEqual({ delta: [["=", [], ["a"]]] });
    for (let index = 0; index < 200; index++) chunk("b");
    const second = await line();
    // Two hundred chunks while the reader was away: one line, with the new items only.
    expect(second.delta).toEqual([["+", [], state.text.slice(1)]]);
    end();
    const final = await line();
    expect(final).toEqual({ final: { delta: [["+", [], ["."]]] } });
    const rebuilt = applyDelta(
      applyDelta(applyDelta(undefined, (await first).delta as never), second.delta as never),
      (final.final as { delta: never }).delta,
    );
    expect(rebuilt).toEqual([...state.text, "."]);
    expect((await reader.read()).done).toBe(true);
    expect(state.builds).toBe(2);
  });
});
