/**
 * The AWS event stream binary framing (`application/vnd.amazon.eventstream`, Bedrock's ConverseStream):
 * each message is a 12-byte prelude (total length, headers length, CRC-32 of those 8 bytes), typed headers,
 * a payload, and a CRC-32 of everything before it. The decoder takes byte chunks split anywhere and checks
 * both checksums; the encoder writes string-header messages (what the mock server sends).
 */

import { hasErrorMark, markError } from "../util/index.js";
import { crc32 } from "./crc32.js";

/** A header value by wire type: booleans, integers, bytes, strings, timestamps, UUIDs (as hex text). */
export type AwsEventStreamHeaderValue = boolean | number | bigint | string | Uint8Array | Date;

export interface AwsEventStreamMessage {
  /** `:event-type`, `:message-type`, `:content-type`, `:exception-type`, … */
  headers: Record<string, AwsEventStreamHeaderValue>;
  payload: Uint8Array;
}

/** The bytes are not a valid event stream (a bad checksum, an impossible length, a truncated message). */
export class AwsEventStreamError extends Error {
  constructor(...args: ConstructorParameters<typeof Error>) {
    super(...args);
    markError(this, "AwsEventStreamError");
  }

  override name = "AwsEventStreamError";

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is AwsEventStreamError {
    return hasErrorMark(value, "AwsEventStreamError");
  }
}

const preludeLength = 12;
const checksumLength = 4;
const utf8 = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();
const empty = new Uint8Array(0);

/** Decodes messages incrementally from chunks split at any byte. */
export class AwsEventStreamDecoder {
  private buffer = empty;
  /** Stream position of `buffer[0]`, for error messages. */
  private position = 0;

  /** Decodes a chunk; returns the messages it completed. Throws `AwsEventStreamError` on corrupt bytes. */
  push(chunk: Uint8Array): AwsEventStreamMessage[] {
    let buffer = chunk;
    if (this.buffer.length > 0) {
      buffer = new Uint8Array(this.buffer.length + chunk.length);
      buffer.set(this.buffer);
      buffer.set(chunk, this.buffer.length);
    }
    const messages: AwsEventStreamMessage[] = [];
    let offset = 0;
    while (buffer.length - offset >= preludeLength) {
      // Plain byte reads, no DataView per message: a stream is hundreds of token-sized messages.
      const totalLength = readUint32(buffer, offset);
      const headersLength = readUint32(buffer, offset + 4);
      if (readUint32(buffer, offset + 8) !== crc32(buffer, offset, offset + 8)) {
        throw new AwsEventStreamError(
          `event stream message at byte ${this.position + offset}: the prelude checksum does not match (corrupt or not an event stream)`,
        );
      }
      if (
        totalLength < preludeLength + checksumLength ||
        headersLength > totalLength - preludeLength - checksumLength
      ) {
        throw new AwsEventStreamError(
          `event stream message at byte ${this.position + offset}: impossible lengths (total ${totalLength}, headers ${headersLength})`,
        );
      }
      if (buffer.length - offset < totalLength) break;
      const end = offset + totalLength;
      if (readUint32(buffer, end - checksumLength) !== crc32(buffer, offset, end - checksumLength)) {
        throw new AwsEventStreamError(
          `event stream message at byte ${this.position + offset}: the message checksum does not match (corrupt data)`,
        );
      }
      const headersStart = offset + preludeLength;
      const payloadStart = headersStart + headersLength;
      messages.push({
        headers: readHeaders(buffer.subarray(headersStart, payloadStart)),
        payload: buffer.slice(payloadStart, end - checksumLength),
      });
      offset = end;
    }
    this.buffer = offset === buffer.length ? empty : buffer.slice(offset);
    this.position += offset;
    return messages;
  }

  /** Ends the stream; throws when a message was cut off. */
  end(): void {
    if (this.buffer.length > 0) {
      throw new AwsEventStreamError(
        `the event stream ended inside a message (${this.buffer.length} bytes of it received)`,
      );
    }
  }
}

function readUint32(bytes: Uint8Array, at: number): number {
  return (
    (((bytes[at] as number) << 24) |
      ((bytes[at + 1] as number) << 16) |
      ((bytes[at + 2] as number) << 8) |
      (bytes[at + 3] as number)) >>>
    0
  );
}

function readHeaders(bytes: Uint8Array): Record<string, AwsEventStreamHeaderValue> {
  const headers: Record<string, AwsEventStreamHeaderValue> = {};
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  let offset = 0;
  const need = (count: number): void => {
    if (offset + count > bytes.length)
      throw new AwsEventStreamError("an event stream header runs past its block");
  };
  while (offset < bytes.length) {
    const nameLength = view.getUint8(offset++);
    need(nameLength + 1);
    const name = text(bytes, offset, offset + nameLength);
    offset += nameLength;
    const type = view.getUint8(offset++);
    let value: AwsEventStreamHeaderValue;
    switch (type) {
      case 0:
      case 1:
        value = type === 0;
        break;
      case 2:
        need(1);
        value = view.getInt8(offset);
        offset += 1;
        break;
      case 3:
        need(2);
        value = view.getInt16(offset);
        offset += 2;
        break;
      case 4:
        need(4);
        value = view.getInt32(offset);
        offset += 4;
        break;
      case 5:
      case 8: {
        need(8);
        const number = view.getBigInt64(offset);
        value = type === 5 ? number : new Date(Number(number));
        offset += 8;
        break;
      }
      case 6:
      case 7: {
        need(2);
        const length = view.getUint16(offset);
        offset += 2;
        need(length);
        value = type === 6 ? bytes.slice(offset, offset + length) : text(bytes, offset, offset + length);
        offset += length;
        break;
      }
      case 9: {
        need(16);
        let hex = "";
        for (const byte of bytes.subarray(offset, offset + 16)) hex += byte.toString(16).padStart(2, "0");
        value = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
        offset += 16;
        break;
      }
      default:
        throw new AwsEventStreamError(`event stream header "${name}" has unknown type ${type}`);
    }
    headers[name] = value;
  }
  return headers;
}

/** `bytes[start, end)` as UTF-8; header names and values are almost always ASCII, decoded without a TextDecoder. */
function text(bytes: Uint8Array, start: number, end: number): string {
  let ascii = "";
  for (let index = start; index < end; index++) {
    const byte = bytes[index] as number;
    if (byte >= 0x80) {
      try {
        return utf8.decode(bytes.subarray(start, end));
      } catch {
        throw new AwsEventStreamError("an event stream header is not valid UTF-8");
      }
    }
    ascii += String.fromCharCode(byte);
  }
  return ascii;
}

/** Encoded headers by name and value: a stream repeats the same few on every message. */
const headerCache = new Map<string, Uint8Array>();
const headerCacheLimit = 64;

function encodeHeader(name: string, value: string): Uint8Array {
  const key = `${name}\u0000${value}`;
  const cached = headerCache.get(key);
  if (cached !== undefined) return cached;
  const nameBytes = encoder.encode(name);
  const valueBytes = encoder.encode(value);
  if (nameBytes.length > 255 || valueBytes.length > 65535) {
    throw new AwsEventStreamError(`event stream header "${name}" is too long to encode`);
  }
  const header = new Uint8Array(1 + nameBytes.length + 1 + 2 + valueBytes.length);
  header[0] = nameBytes.length;
  header.set(nameBytes, 1);
  header[1 + nameBytes.length] = 7;
  header[2 + nameBytes.length] = valueBytes.length >>> 8;
  header[3 + nameBytes.length] = valueBytes.length & 0xff;
  header.set(valueBytes, 4 + nameBytes.length);
  if (headerCache.size >= headerCacheLimit) headerCache.clear();
  headerCache.set(key, header);
  return header;
}

/** One message with string headers (wire type 7) and a payload (text is UTF-8 encoded). */
export function encodeAwsEventStreamMessage(
  headers: Readonly<Record<string, string>>,
  payload: Uint8Array | string,
): Uint8Array {
  const body = typeof payload === "string" ? encoder.encode(payload) : payload;
  const encodedHeaders = Object.entries(headers).map(([name, value]) => encodeHeader(name, value));
  const headersLength = encodedHeaders.reduce((total, header) => total + header.length, 0);
  const totalLength = preludeLength + headersLength + body.length + checksumLength;
  const message = new Uint8Array(totalLength);
  const view = new DataView(message.buffer);
  view.setUint32(0, totalLength);
  view.setUint32(4, headersLength);
  view.setUint32(8, crc32(message, 0, 8));
  let offset = preludeLength;
  for (const header of encodedHeaders) {
    message.set(header, offset);
    offset += header.length;
  }
  message.set(body, offset);
  view.setUint32(totalLength - checksumLength, crc32(message, 0, totalLength - checksumLength));
  return message;
}
