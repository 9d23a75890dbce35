import { type DeltaCursor, type DeltaOperation, diffPartial } from "../stream-client/index.js";
import { BamlError } from "./errors.js";

/** `partial`: every event carries the whole partial value; `delta`: only what changed (partial-delta.ts). */
export type StreamFormat = "partial" | "delta";

/** One event of a streamed call on the wire, before it is framed (SSE or NDJSON). */
export type StreamEvent =
  | { event: "partial"; data: unknown }
  | { event: "delta"; data: DeltaOperation[] }
  | { event: "final"; data: unknown };

export interface StreamEventOptions {
  format: StreamFormat;
  /**
   * What the final event says beyond the value (the server's Sapling envelope): an object whose `value` is
   * the final value. The partial format sends it whole; the delta format sends it with `value` replaced by
   * `delta`, the operations from the last partial to the final value.
   */
  envelope?: (value: unknown) => Record<string, unknown>;
}

/** What the wire formats need of a stream (a `SaplingStream`). */
export interface PartialStream extends AsyncIterable<unknown> {
  getFinalResponse(): Promise<unknown>;
}

/**
 * The events of a streamed call in either format, pulled: a partial is read from the stream only when the
 * next event is asked for, so a reader that drains slowly gets the latest partial (in the delta format,
 * everything that changed since the last event it got, in one event). Ends with the `final` event; the
 * call's error is thrown after the events before it. Returning early stops the call.
 */
export async function* streamEvents(
  stream: PartialStream,
  options: StreamEventOptions,
): AsyncGenerator<StreamEvent, void, undefined> {
  let shown: unknown;
  const cursor: DeltaCursor = {};
  for await (const partial of stream) {
    if (options.format === "partial") {
      yield { event: "partial", data: partial };
      continue;
    }
    const operations = diffPartial(shown, partial, cursor);
    shown = partial;
    if (operations.length > 0) yield { event: "delta", data: operations };
  }
  const value = await stream.getFinalResponse();
  if (options.format === "partial") {
    yield { event: "final", data: options.envelope ? options.envelope(value) : value };
    return;
  }
  const { value: _value, ...facts } = options.envelope ? options.envelope(value) : {};
  yield { event: "final", data: { delta: diffPartial(shown, value, cursor), ...facts } };
}

/** An event as one NDJSON line: `{"partial":…}`, `{"delta":[…]}` or `{"final":…}`. */
export function ndjsonLine(event: StreamEvent): string {
  return `${JSON.stringify({ [event.event]: event.data })}\n`;
}

/**
 * A call's error as the streams report it: name, code and message, and the model's answer (`raw_output`)
 * when it answered but the answer could not be used, so a page can show what the model said; never a stack.
 */
export function describeStreamError(error: unknown): {
  name: string;
  code?: string;
  message: string;
  raw_output?: string;
} {
  if (BamlError.isInstance(error)) {
    const rawOutput = (error as { rawOutput?: unknown }).rawOutput;
    return {
      name: error.name,
      code: error.code,
      message: error.message,
      ...(typeof rawOutput === "string" ? { raw_output: rawOutput } : {}),
    };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}
