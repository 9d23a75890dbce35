import type { SaplingStream } from "../runtime/index.js";
import { describeFailure, type ErrorBody } from "./error-response.js";

/**
 * A streaming call as server-sent events: `event: partial` per partial value, then one `event: final` with
 * the value (as `/call` answers it) or one `event: error` with the error body (its `status` says what
 * `/call` would have answered). Headers go out at once, so failures after that are events, not statuses.
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
    /** The `final` event's data (default: the value itself, BAML's body). */
    final?: (value: unknown) => unknown;
    /** Called once when the stream ends: after `final`, after `error` (its body), or when the reader left. */
    onEnd?: (outcome: { failure?: ErrorBody; aborted?: boolean }) => void;
  },
): Response {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const encoder = new TextEncoder();
  const iterator = stream[Symbol.asyncIterator]();
  const event = (name: string, value: unknown): Uint8Array =>
    encoder.encode(`event: ${name}\ndata: ${JSON.stringify(value)}\n\n`);
  // A read that outlived a heartbeat is kept for the next pull, so no partial is ever skipped.
  let pending: Promise<IteratorResult<unknown>> | undefined;
  const body = new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      try {
        pending ??= iterator.next();
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
          controller.enqueue(event("partial", step.value));
          return;
        }
        const value = await stream.getFinalResponse();
        controller.enqueue(event("final", options.final ? options.final(value) : value));
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
