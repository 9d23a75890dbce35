import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { Readable, type Writable } from "node:stream";

/** A web-standard handler, as `createSaplingHandler` returns. */
export type FetchHandler = (request: Request) => Promise<Response>;

export interface NodeHttpServer {
  /** `http://host:port`, with the port actually bound (useful with port 0). */
  readonly url: string;
  readonly port: number;
  /**
   * Stops accepting connections, ends idle keep-alive ones, lets open requests finish for up to `graceMs`
   * (default 2000), then cuts the rest (which aborts their model calls).
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Runs a web-standard `Request → Response` handler on node:http — the small adapter `sapling serve` needs
 * instead of a framework dependency (docs/decisions/0002-http-layer.md). Request bodies stream in (the
 * handler enforces its size limit while reading); response bodies stream out with backpressure, headers
 * flushed at once so server-sent events start immediately; a client that disconnects aborts
 * `request.signal` and cancels the response body, which stops the model call behind it.
 */
export async function serveOverNodeHttp(
  handler: FetchHandler,
  options: { port: number; host: string },
): Promise<NodeHttpServer> {
  // Requests in flight per socket: at close, sockets without one are cut at once (Node's own
  // closeIdleConnections skips sockets that connected but never sent a request, as fetch's pool opens).
  const busy = new Map<Socket, number>();
  let closing = false;
  const server = createServer((incoming, outgoing) => {
    const socket = incoming.socket;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    outgoing.on("close", () => {
      const remaining = (busy.get(socket) ?? 1) - 1;
      busy.set(socket, remaining);
      if (closing && remaining === 0) socket.destroy();
    });
    respond(handler, incoming, outgoing).catch((error: unknown) => {
      if (!outgoing.headersSent) {
        outgoing.writeHead(500, { "content-type": "application/json; charset=utf-8" });
        outgoing.end(JSON.stringify({ error: { status: 500, code: "INTERNAL", message: String(error) } }));
      } else outgoing.destroy();
    });
  });
  server.on("connection", (socket: Socket) => {
    busy.set(socket, 0);
    socket.on("close", () => busy.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("node:http bound no TCP address");
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    close: async (graceMs = 2000) => {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const [socket, requests] of busy) if (requests === 0) socket.destroy();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
    },
  };
}

async function respond(handler: FetchHandler, incoming: IncomingMessage, outgoing: ServerResponse) {
  const controller = new AbortController();
  outgoing.on("close", () => {
    if (!outgoing.writableFinished) controller.abort(new Error("the client closed the connection"));
  });
  let request: Request;
  try {
    request = toRequest(incoming, controller.signal);
  } catch (error) {
    // Only the request line and the Host header make the URL: a Host that names no host is the caller's
    // mistake (400), not the server's (500).
    const reason = error instanceof Error ? error.message : String(error);
    const message = `The request's Host header (${JSON.stringify(incoming.headers.host ?? "")}) and path make no valid URL (${reason}). Send a host name, optionally with :port.`;
    const body = JSON.stringify({ error: { status: 400, code: "BAD_REQUEST", name: "HttpError", message } });
    outgoing.writeHead(400, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(body),
    });
    outgoing.end(body);
    return;
  }
  const response = await handler(request);
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  outgoing.writeHead(response.status, headers);
  if (!response.body || incoming.method === "HEAD") {
    await response.body?.cancel();
    outgoing.end();
    return;
  }
  outgoing.flushHeaders();
  await writeBody(response.body, outgoing, controller.signal);
}

/**
 * Copies `body` into `outgoing` with backpressure (each write that fills the buffer waits for `drain`) and
 * ends it; stops and cancels the body when `signal` aborts or `outgoing` is destroyed.
 */
export async function writeBody(body: ReadableStream<Uint8Array>, outgoing: Writable, signal: AbortSignal) {
  const reader = body.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  signal.addEventListener("abort", stop, { once: true });
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!outgoing.write(value)) await drainOrClose(outgoing);
      if (outgoing.destroyed) return;
    }
    outgoing.end();
  } finally {
    signal.removeEventListener("abort", stop);
  }
}

/**
 * Resolves at the first `drain` or `close` of `outgoing` and removes both listeners then: racing two
 * `events.once` promises would leave the loser attached, one per back-pressured write, until a long
 * stream trips MaxListenersExceededWarning.
 */
function drainOrClose(outgoing: Writable): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      outgoing.off("drain", settle);
      outgoing.off("close", settle);
      resolve();
    };
    outgoing.on("drain", settle);
    outgoing.on("close", settle);
  });
}

function toRequest(incoming: IncomingMessage, signal: AbortSignal): Request {
  const host = incoming.headers.host ?? "localhost";
  const url = new URL(incoming.url ?? "/", `http://${host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const item of [value].flat()) headers.append(name, item);
  }
  const method = incoming.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, {
    method,
    headers,
    signal,
    ...(hasBody
      ? { body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: "half" as const }
      : {}),
  } as RequestInit);
}
