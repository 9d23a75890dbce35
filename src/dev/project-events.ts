import type { DevSession } from "./dev-session.js";
import { serverSentEvent } from "./server-sent-event.js";

const keepAlive = new TextEncoder().encode(": keep-alive\n\n");

/**
 * `GET /_dev/events`: server-sent `update` events with the project's version, one at once and one after
 * each reload, and a keep-alive comment every `heartbeatMs`; it ends when the page goes away.
 */
export function projectEvents(session: DevSession, request: Request, heartbeatMs: number): Response {
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => {
      const send = (bytes: Uint8Array) => {
        try {
          controller.enqueue(bytes);
        } catch {
          stop();
        }
      };
      send(serverSentEvent("update", { version: session.version }));
      const unsubscribe = session.subscribe((version) => send(serverSentEvent("update", { version })));
      const timer = setInterval(() => send(keepAlive), heartbeatMs);
      stop = () => {
        unsubscribe();
        clearInterval(timer);
      };
      request.signal.addEventListener("abort", () => {
        stop();
        try {
          controller.close();
        } catch {}
      });
    },
    cancel: () => stop(),
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  });
}
