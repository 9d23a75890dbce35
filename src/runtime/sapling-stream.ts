import { BamlError } from "./errors.js";

/** Where a stream's producer sends partial values; returns the final value when the call ends. */
export type StreamProducer<Final> = (emit: (partial: unknown) => void) => Promise<Final>;

/**
 * A streaming call (BAML's `BamlStream`): `for await (const partial of stream)` yields typed partial values
 * as the answer arrives (each different from the one before), `getFinalResponse()` resolves the value
 * parsed in final mode, and `toStreamable()` gives a web `ReadableStream` of NDJSON lines for HTTP
 * responses. The call starts on first use (iteration, `getFinalResponse` or `toStreamable`), once.
 */
export class SaplingStream<Partial, Final> implements AsyncIterable<Partial> {
  readonly #produce: StreamProducer<Final>;
  #final: Promise<Final> | undefined;
  readonly #queue: Partial[] = [];
  #last: unknown;
  #emitted = false;
  #ended = false;
  #wake: (() => void) | undefined;

  constructor(produce: StreamProducer<Final>) {
    this.#produce = produce;
  }

  /** Resolves with the final value (parsed in final mode), or rejects with the call's error. */
  getFinalResponse(): Promise<Final> {
    this.#start();
    return this.#final as Promise<Final>;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Partial> {
    const final = this.getFinalResponse();
    // The iterator reports failure by throwing; keep the rejection from also surfacing as unhandled.
    final.catch(() => {});
    while (true) {
      const next = this.#queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#ended) break;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
    await final;
  }

  /**
   * NDJSON for a web response: `{"partial":…}` per partial, then `{"final":…}`, or `{"error":{…}}` when the
   * call fails (name, code and message; never a stack).
   */
  toStreamable(): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    const iterator = this[Symbol.asyncIterator]();
    const line = (value: unknown): Uint8Array => encoder.encode(`${JSON.stringify(value)}\n`);
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const step = await iterator.next();
          if (!step.done) {
            controller.enqueue(line({ partial: step.value }));
            return;
          }
          controller.enqueue(line({ final: await this.getFinalResponse() }));
        } catch (error) {
          controller.enqueue(line({ error: describeError(error) }));
        }
        controller.close();
      },
    });
  }

  #start(): void {
    if (this.#final) return;
    const emit = (partial: unknown): void => {
      if (this.#emitted && sameValue(partial, this.#last)) return;
      this.#emitted = true;
      this.#last = partial;
      this.#queue.push(partial as Partial);
      this.#notify();
    };
    this.#final = this.#produce(emit).finally(() => {
      this.#ended = true;
      this.#notify();
    });
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/**
 * Deep equality that stops at shared references: the stream parser keeps finished subtrees' identity, so
 * comparing consecutive partials costs only the part still being written (stringifying both would cost
 * the whole value on every chunk, quadratic over a stream).
 */
function sameValue(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    // From the end: a partial grows at its end, so a changed list differs there (an unchanged prefix of
    // shared items would cost a walk of the whole list on every chunk).
    for (let index = left.length - 1; index >= 0; index--) {
      if (!sameValue(left[index], right[index])) return false;
    }
    return true;
  }
  if (Array.isArray(right)) return false;
  const leftKeys = Object.keys(left);
  if (leftKeys.length !== Object.keys(right).length) return false;
  return leftKeys.every(
    (key) =>
      Object.hasOwn(right, key) &&
      sameValue((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]),
  );
}

function describeError(error: unknown): { name: string; code?: string; message: string } {
  if (BamlError.isInstance(error)) return { name: error.name, code: error.code, message: error.message };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}
