import type { SaplingStream } from "../runtime/index.js";
import { describeFailure } from "./error-response.js";

/**
 * A streaming call as server-sent events: `event: partial` per partial value, then one `event: final` with
 * the value (as `/call` answers it) or one `event: error` with the error body (its `status` says what
 * `/call` would have answered). Headers go out at once, so failures after that are events, not statuses.
 * Pulled: the next partial is read only when the previous one was taken, so a slow reader is not flooded.
 * `onCancel` runs when the reader goes away, to stop the model call.
 */
export function streamResponse(stream: SaplingStream<unknown, unknown>, onCancel: () => void): Response {
  const encoder = new TextEncoder();
  const iterator = stream[Symbol.asyncIterator]();
  const event = (name: string, value: unknown): Uint8Array =>
    encoder.encode(`event: ${name}\ndata: ${JSON.stringify(value)}\n\n`);
  const body = new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      try {
        const step = await iterator.next();
        if (!step.done) {
          controller.enqueue(event("partial", step.value));
          return;
        }
        controller.enqueue(event("final", await stream.getFinalResponse()));
      } catch (error) {
        controller.enqueue(event("error", { error: describeFailure(error) }));
      }
      controller.close();
    },
    cancel: () => {
      onCancel();
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
