import { type SaplingStream, type StreamEvent, type StreamFormat, streamEvents } from "../runtime/index.js";
import { describeFailure, type ErrorBody } from "./error-response.js";

/**
 * A streaming call as server-sent events: `event: partial` per partial value, then one `event: final` with
 * the value (as `/call` answers it) or one `event: error` with the error body (its `status` says what
 * `/call` would have answered). Headers go out at once, so failures after that are events, not statuses.
 * In the delta format, unnamed events (`data:` lines only) carry what changed instead of `partial` events,
 * and `final` carries the operations to the final value (docs/runtime.md, "The wire formats").
 *
 * Events are pulled: the next one is built when the body is read, which `sapling serve` does when the
 * socket has drained. A slow client gets the latest partial (or, in the delta format, all changes since
 * its last event, in one event), never a backlog; the bytes sent grow with how fast it reads.
 * While nothing new arrives for `heartbeatMs`, a `: keep-alive` comment line is sent (event-stream readers
 * ignore comments), so proxies with idle timeouts do not cut a model that thinks for a minute before its
 * first token. `onCancel` runs when the reader goes away, to stop the model call; `translate` maps a
 * failure before it is described (the handler's deadline turns an abort into a timeout).
 */
export function streamResponse(
  stream: SaplingStream<unknown, unknown>,
  options: {
    onCancel: () => void;
    heartbeatMs?: number;
    translate?: (error: unknown) => unknown;
    /** `partial` (default, BAML's events) or `delta`. */
    format?: StreamFormat;
    /** The Sapling envelope of the final value (default: the value itself, BAML's body). */
    envelope?: (value: unknown) => Record<string, unknown>;
    /**
     * Extra lines of the `final` event (`name: value`, in the order given): `sapling serve` sends the
     * `x-sapling-*` facts a `/call` answer has as headers. Event-stream readers skip fields they do not
     * know, so BAML's clients read the event as before. Values must be header-safe (no CR or LF).
     */
    finalFields?: () => Record<string, string>;
    /** Called once when the stream ends: after `final`, after `error` (its body), or when the reader left. */
    onEnd?: (outcome: { failure?: ErrorBody; aborted?: boolean }) => void;
  },
): Response {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const encoder = new TextEncoder();
  const events = streamEvents(stream, {
    format: options.format ?? "partial",
    ...(options.envelope ? { envelope: options.envelope } : {}),
  });
  const event = (name: string, value: unknown, fields = ""): Uint8Array =>
    encoder.encode(`event: ${name}\n${fields}data: ${JSON.stringify(value)}\n\n`);
  const finalFields = (): string =>
    Object.entries(options.finalFields?.() ?? {})
      .map(([name, value]) => `${name}: ${value}\n`)
      .join("");
  const frame = (step: StreamEvent): Uint8Array => {
    if (step.event === "delta") return encoder.encode(`data: ${JSON.stringify(step.data)}\n\n`);
    return event(step.event, step.data, step.event === "final" ? finalFields() : "");
  };
  // A read that outlived a heartbeat is kept for the next pull, so no event is ever skipped.
  let pending: Promise<IteratorResult<StreamEvent>> | undefined;
  const body = new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      try {
        pending ??= events.next();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const beat = new Promise<"beat">((resolve) => {
          timer = setTimeout(() => resolve("beat"), heartbeatMs);
        });
        const step = await Promise.race([pending, beat]).finally(() => clearTimeout(timer));
        if (step === "beat") {
          controller.enqueue(encoder.encode(": keep-alive\n\n"));
          return;
        }
        pending = undefined;
        if (!step.done) {
          controller.enqueue(frame(step.value));
          if (step.value.event !== "final") return;
        }
        options.onEnd?.({});
      } catch (error) {
        const failure = describeFailure(options.translate ? options.translate(error) : error);
        controller.enqueue(event("error", { error: failure }));
        options.onEnd?.({ failure });
      }
      controller.close();
    },
    cancel: () => {
      options.onEnd?.({ aborted: true });
      options.onCancel();
      // Ends the stream's iteration too (the call is already aborted by `onCancel`).
      void events.return(undefined).catch(() => {});
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    },
  });
}
