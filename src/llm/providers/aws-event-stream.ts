/**
 * The AWS event stream binary framing (`application/vnd.amazon.eventstream`, Bedrock's ConverseStream):
 * each message is a 12-byte prelude (total length, headers length, CRC-32 of those 8 bytes), typed headers,
 * a payload, and a CRC-32 of everything before it. The decoder takes byte chunks split anywhere and checks
 * both checksums; the encoder writes string-header messages (what the mock server sends).
 */
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
  override name = "AwsEventStreamError";
}

const preludeLength = 12;
const checksumLength = 4;
const utf8 = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

/** Decodes messages incrementally from chunks split at any byte. */
export class AwsEventStreamDecoder {
  private buffer = new Uint8Array(0);
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
      const view = new DataView(buffer.buffer, buffer.byteOffset + offset, buffer.length - offset);
      const totalLength = view.getUint32(0);
      const headersLength = view.getUint32(4);
      if (view.getUint32(8) !== crc32(buffer, offset, offset + 8)) {
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
      if (view.getUint32(totalLength - checksumLength) !== crc32(buffer, offset, end - checksumLength)) {
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
    this.buffer = buffer.slice(offset);
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
    const name = text(bytes.subarray(offset, offset + nameLength));
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
        const raw = bytes.slice(offset, offset + length);
        value = type === 6 ? raw : text(raw);
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

function text(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new AwsEventStreamError("an event stream header is not valid UTF-8");
  }
}

/** One message with string headers (wire type 7) and a payload (text is UTF-8 encoded). */
export function encodeAwsEventStreamMessage(
  headers: Readonly<Record<string, string>>,
  payload: Uint8Array | string,
): Uint8Array {
  const body = typeof payload === "string" ? encoder.encode(payload) : payload;
  const encodedHeaders = Object.entries(headers).map(([name, value]) => {
    const nameBytes = encoder.encode(name);
    const valueBytes = encoder.encode(value);
    if (nameBytes.length > 255 || valueBytes.length > 65535) {
      throw new AwsEventStreamError(`event stream header "${name}" is too long to encode`);
    }
    const header = new Uint8Array(1 + nameBytes.length + 1 + 2 + valueBytes.length);
    header[0] = nameBytes.length;
    header.set(nameBytes, 1);
    header[1 + nameBytes.length] = 7;
    new DataView(header.buffer).setUint16(2 + nameBytes.length, valueBytes.length);
    header.set(valueBytes, 4 + nameBytes.length);
    return header;
  });
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
