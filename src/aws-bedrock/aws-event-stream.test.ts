/**
 * The event stream codec against aws-c-event-stream's published vectors (an empty message, a payload-only
 * message, a message with a `content-type` string header), fed whole and split at every possible size.
 */
import { describe, expect, it } from "vitest";
import {
  AwsEventStreamDecoder,
  AwsEventStreamError,
  type AwsEventStreamMessage,
  encodeAwsEventStreamMessage,
} from "./aws-event-stream.js";
import { crc32 } from "./crc32.js";

const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  new Uint8Array(parts.flatMap((part) => (typeof part === "string" ? [...Buffer.from(part)] : part)));

const emptyMessage = bytes([0, 0, 0, 0x10, 0, 0, 0, 0, 0x05, 0xc2, 0x48, 0xeb, 0x7d, 0x98, 0xc8, 0xff]);
const payloadMessage = bytes(
  [0, 0, 0, 0x1d, 0, 0, 0, 0, 0xfd, 0x52, 0x8c, 0x5a],
  "{'foo':'bar'}",
  [0xc3, 0x65, 0x39, 0x36],
);
const headerMessage = bytes(
  [0, 0, 0, 0x3d, 0, 0, 0, 0x20, 0x07, 0xfd, 0x83, 0x96, 0x0c],
  "content-type",
  [0x07, 0x00, 0x10],
  "application/json",
  "{'foo':'bar'}",
  [0x8d, 0x9c, 0x08, 0xb1],
);
const all = bytes([...emptyMessage, ...payloadMessage, ...headerMessage]);

function readable(message: AwsEventStreamMessage) {
  return { headers: message.headers, payload: Buffer.from(message.payload).toString("utf8") };
}

const expected = [
  { headers: {}, payload: "" },
  { headers: {}, payload: "{'foo':'bar'}" },
  { headers: { "content-type": "application/json" }, payload: "{'foo':'bar'}" },
];

describe("AwsEventStreamDecoder", () => {
  it("decodes the published vectors in one chunk", () => {
    const decoder = new AwsEventStreamDecoder();
    expect(decoder.push(all).map(readable)).toEqual(expected);
    expect(() => decoder.end()).not.toThrow();
  });

  it("decodes the same messages from chunks of every size, split anywhere", () => {
    for (let size = 1; size <= all.length; size++) {
      const decoder = new AwsEventStreamDecoder();
      const messages: AwsEventStreamMessage[] = [];
      for (let offset = 0; offset < all.length; offset += size) {
        messages.push(...decoder.push(all.subarray(offset, offset + size)));
      }
      decoder.end();
      expect(messages.map(readable), `chunks of ${size} bytes`).toEqual(expected);
    }
  });

  it("rejects a flipped bit in the prelude with a clear error", () => {
    const corrupt = emptyMessage.slice();
    corrupt[9] = 0xc3;
    expect(() => new AwsEventStreamDecoder().push(corrupt)).toThrow(
      new AwsEventStreamError(
        "event stream message at byte 0: the prelude checksum does not match (corrupt or not an event stream)",
      ),
    );
  });

  it("rejects a corrupt payload by the message checksum, even when it arrives byte by byte", () => {
    const corrupt = bytes([...emptyMessage, ...payloadMessage]);
    corrupt[30] = (corrupt[30] ?? 0) ^ 0x01; // a payload byte of the second message
    const decoder = new AwsEventStreamDecoder();
    const push = () => {
      for (const byte of corrupt) decoder.push(new Uint8Array([byte]));
    };
    expect(push).toThrow(/message at byte 16: the message checksum does not match/);
  });

  it("reports a stream cut inside a message at its end", () => {
    const decoder = new AwsEventStreamDecoder();
    expect(decoder.push(payloadMessage.subarray(0, 20))).toEqual([]);
    expect(() => decoder.end()).toThrow("the event stream ended inside a message (20 bytes of it received)");
  });

  it("rejects lengths that cannot hold a message", () => {
    const tooShort = bytes([0, 0, 0, 0x08, 0, 0, 0, 0]);
    const prelude = bytes([...tooShort, ...u32(crc32(tooShort)), 0, 0, 0, 0]);
    expect(() => new AwsEventStreamDecoder().push(prelude)).toThrow(
      /impossible lengths \(total 8, headers 0\)/,
    );
  });

  it("reads every header type", () => {
    const headers = bytes(
      header("t", 0),
      header("f", 1),
      header("b", 2, [0xff]),
      header("s", 3, [0x01, 0x00]),
      header("i", 4, [0, 0, 0x01, 0]),
      header("l", 5, [0, 0, 0, 0, 0, 0, 0x01, 0]),
      header("a", 6, [0, 2, 0xca, 0xfe]),
      header("d", 8, [0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00]),
      header("u", 9, [...Array(16).keys()]),
    );
    const [message] = new AwsEventStreamDecoder().push(frame(headers, []));
    expect(message?.headers).toEqual({
      t: true,
      f: false,
      b: -1,
      s: 256,
      i: 256,
      l: 256n,
      a: new Uint8Array([0xca, 0xfe]),
      d: new Date(0x018bcfe56800),
      u: "00010203-0405-0607-0809-0a0b0c0d0e0f",
    });
  });
});

describe("encodeAwsEventStreamMessage", () => {
  it("writes the published vectors byte for byte", () => {
    expect(encodeAwsEventStreamMessage({}, "")).toEqual(emptyMessage);
    expect(encodeAwsEventStreamMessage({}, "{'foo':'bar'}")).toEqual(payloadMessage);
    expect(encodeAwsEventStreamMessage({ "content-type": "application/json" }, "{'foo':'bar'}")).toEqual(
      headerMessage,
    );
  });

  it("round-trips Bedrock-style headers and UTF-8 payloads", () => {
    const headers = {
      ":event-type": "contentBlockDelta",
      ":content-type": "application/json",
      ":message-type": "event",
    };
    const payload = '{"delta":{"text":"héllo ✓"}}';
    const [message] = new AwsEventStreamDecoder().push(encodeAwsEventStreamMessage(headers, payload));
    expect(message && readable(message)).toEqual({ headers, payload });
  });
});

describe("non-ASCII headers", () => {
  it("round-trips UTF-8 header values and refuses invalid UTF-8", () => {
    const encoded = encodeAwsEventStreamMessage({ ":event-type": "délta ✓" }, "");
    expect(new AwsEventStreamDecoder().push(encoded)[0]?.headers).toEqual({ ":event-type": "délta ✓" });
    const invalid = frame(bytes(header("x", 7, [0, 2, 0xc3, 0x28])), []);
    expect(() => new AwsEventStreamDecoder().push(invalid)).toThrow(
      "an event stream header is not valid UTF-8",
    );
  });
});

describe("crc32", () => {
  it("gives the standard check value", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });
});

function u32(value: number): number[] {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

function header(name: string, type: number, value: number[] = []): number[] {
  return [name.length, ...Buffer.from(name), type, ...value];
}

function frame(headers: Uint8Array, payload: number[]): Uint8Array {
  const total = 12 + headers.length + payload.length + 4;
  const prelude = bytes(u32(total), u32(headers.length));
  const body = bytes([...prelude, ...u32(crc32(prelude)), ...headers, ...payload]);
  return bytes([...body, ...u32(crc32(body))]);
}
