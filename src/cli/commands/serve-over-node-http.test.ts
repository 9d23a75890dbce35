import { connect } from "node:net";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { serveOverNodeHttp, writeBody } from "./serve-over-node-http.js";

/** A body of `count` chunks of `size` bytes. */
function body(count: number, size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ < count) controller.enqueue(new Uint8Array(size));
      else controller.close();
    },
  });
}

describe("writeBody", () => {
  it("leaves no drain or close listener behind after many back-pressured writes", async () => {
    let written = 0;
    let backPressured = 0;
    // A one-byte buffer that flushes on a later turn: every write reports backpressure.
    const outgoing = new Writable({
      highWaterMark: 1,
      write(chunk: Uint8Array, _encoding, callback) {
        written += chunk.length;
        setImmediate(callback);
      },
    });
    const write = outgoing.write.bind(outgoing);
    outgoing.write = ((chunk: Uint8Array) => {
      const ok = write(chunk);
      if (!ok) backPressured++;
      return ok;
    }) as typeof outgoing.write;
    const before = { drain: outgoing.listenerCount("drain"), close: outgoing.listenerCount("close") };
    await writeBody(body(500, 16), outgoing, new AbortController().signal);
    await new Promise((resolve) => outgoing.on("finish", resolve));
    expect(backPressured).toBe(500);
    expect(written).toBe(500 * 16);
    expect(outgoing.listenerCount("drain")).toBe(before.drain);
    expect(outgoing.listenerCount("close")).toBe(before.close);
  });

  it("stops waiting when the destination closes under backpressure, and cancels the body", async () => {
    let cancelled = false;
    const outgoing = new Writable({ highWaterMark: 1, write() {} });
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(8));
      },
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const done = writeBody(source, outgoing, controller.signal);
    setImmediate(() => {
      controller.abort();
      outgoing.destroy();
    });
    await done;
    expect(cancelled).toBe(true);
    expect(outgoing.listenerCount("drain")).toBe(0);
  });
});

describe("serveOverNodeHttp", () => {
  /** Sends `head` as raw bytes (fetch cannot send a malformed Host) and resolves with the whole answer. */
  function rawRequest(port: number, head: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.end(head));
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk.toString("latin1");
      });
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
  }

  it.each([
    ["a space", "exa mple.test"],
    ["a bad port", "example.test:99999"],
    ["an unclosed IPv6 bracket", "[::1"],
  ])("answers 400, not 500, for a Host header with %s, and never calls the handler", async (_label, host) => {
    let called = 0;
    const server = await serveOverNodeHttp(
      async () => {
        called++;
        return new Response("ok");
      },
      { port: 0, host: "127.0.0.1" },
    );
    try {
      const answer = await rawRequest(
        server.port,
        `GET /docs HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
      const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { error: { message: string } };
      expect(body.error.message).toContain("Host header");
      expect(called).toBe(0);
    } finally {
      await server.close();
    }
  });
});
