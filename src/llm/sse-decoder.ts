/**
 * A Server-Sent Events decoder (the WHATWG event-stream grammar): lines end in `\r\n`, `\n` or `\r`; a
 * blank line dispatches the event; `data:` lines join with `\n`; `:` lines are comments; one leading space
 * after the colon is dropped. Chunks may split anywhere, including between `\r` and `\n`.
 */

export interface SseEvent {
  /** The `event:` field, when sent (Anthropic names every event; OpenAI and Gemini send none). */
  event?: string;
  data: string;
  id?: string;
  retry?: number;
}

export class SseDecoder {
  private buffer = "";
  private dataLines: string[] = [];
  private eventName: string | undefined;
  private lastId: string | undefined;
  private retry: number | undefined;
  /** A chunk ended in `\r`: a `\n` starting the next chunk belongs to the same line break. */
  private pendingCarriageReturn = false;
  private started = false;

  /** Decodes a chunk of text; returns the events it completed. */
  push(chunk: string): SseEvent[] {
    let text = chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.pendingCarriageReturn && text.length > 0) {
      if (text.charCodeAt(0) === 10) text = text.slice(1);
      this.pendingCarriageReturn = false;
    }
    this.buffer += text;

    const events: SseEvent[] = [];
    let lineStart = 0;
    const buffer = this.buffer;
    for (let index = 0; index < buffer.length; index++) {
      const code = buffer.charCodeAt(index);
      if (code !== 10 && code !== 13) continue;
      this.processLine(buffer.slice(lineStart, index), events);
      if (code === 13) {
        if (index + 1 < buffer.length) {
          if (buffer.charCodeAt(index + 1) === 10) index++;
        } else {
          this.pendingCarriageReturn = true;
        }
      }
      lineStart = index + 1;
    }
    this.buffer = buffer.slice(lineStart);
    return events;
  }

  /** Ends the stream: an event still being collected (no final blank line) is dispatched. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.buffer !== "") this.processLine(this.buffer, events);
    this.buffer = "";
    this.processLine("", events);
    return events;
  }

  private processLine(line: string, events: SseEvent[]): void {
    if (line === "") {
      if (this.dataLines.length > 0) {
        const event: SseEvent = { data: this.dataLines.join("\n") };
        if (this.eventName !== undefined) event.event = this.eventName;
        if (this.lastId !== undefined) event.id = this.lastId;
        if (this.retry !== undefined) event.retry = this.retry;
        events.push(event);
      }
      this.dataLines = [];
      this.eventName = undefined;
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ":" starts a comment (keep-alives)
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case "data":
        this.dataLines.push(value);
        break;
      case "event":
        this.eventName = value;
        break;
      case "id":
        if (!value.includes("\0")) this.lastId = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      // Unknown fields are ignored, as the standard says.
    }
  }
}

/** Bytes → SSE events, as a web-stream pipeline stage (UTF-8 sequences may also split across chunks). */
export function decodeSseStream(body: ReadableStream<Uint8Array>): ReadableStream<SseEvent> {
  const text = new TextDecoder();
  const decoder = new SseDecoder();
  return body.pipeThrough(
    new TransformStream<Uint8Array, SseEvent>({
      transform(chunk, controller) {
        for (const event of decoder.push(text.decode(chunk, { stream: true }))) controller.enqueue(event);
      },
      flush(controller) {
        for (const event of decoder.push(text.decode())) controller.enqueue(event);
        for (const event of decoder.end()) controller.enqueue(event);
      },
    }),
  );
}
