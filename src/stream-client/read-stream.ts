import { hasErrorMark, markError } from "../util/index.js";
import { applyDelta, type DeltaCursor, type DeltaOperation } from "./partial-delta.js";

/** An `error` event of a stream (or a non-2xx answer before it started), as the server described it. */
export class StreamEventError extends Error {
  override readonly name = "StreamEventError";
  /** The error's code (`CLIENT_HTTP_ERROR`, `VALIDATION_ERROR`, `TIMEOUT`…), when the server sent one. */
  readonly code: string | undefined;
  /** The HTTP status `/call` would have answered (server streams), when known. */
  readonly status: number | undefined;
  /** The error object as sent. */
  readonly body: Record<string, unknown>;

  constructor(body: Record<string, unknown>) {
    super(typeof body.message === "string" ? body.message : JSON.stringify(body));
    this.body = body;
    this.code = typeof body.code === "string" ? body.code : undefined;
    this.status = typeof body.status === "number" ? body.status : undefined;
    markError(this, "StreamEventError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is StreamEventError {
    return hasErrorMark(value, "StreamEventError");
  }
}

/** The partials of a streamed response, then its final value; see `readStream`. */
export interface StreamReader<Partial, Final> extends AsyncIterable<Partial> {
  /** Resolves with the final event's value (the Sapling envelope when the request asked for it). */
  getFinalResponse(): Promise<Final>;
}

interface WireEvent {
  event: string;
  data: unknown;
}

/**
 * Reads a streamed call from a `fetch` response and rebuilds its typed partial values, whichever format
 * it is in: server-sent events from `sapling serve`'s `POST /stream/{Fn}` (`text/event-stream`) or NDJSON
 * lines from `toStreamable()` (any other content type), each with whole partials (the default) or deltas
 * (requested with `Accept: application/vnd.sapling-delta+json`, or `toStreamable({ format: "delta" })`).
 * Browser-safe: it needs only `fetch`'s `Response`, `TextDecoder` and web streams.
 *
 * ```ts
 * const response = await fetch("/stream/ExtractResume", { method: "POST", body, headers });
 * const stream = readStream<partial_types.Resume, Resume>(response);
 * for await (const partial of stream) render(partial);
 * const resume = await stream.getFinalResponse();
 * ```
 *
 * Pulled: the body is read when the next partial is asked for, and all events that arrived by then are
 * applied at once, so a slow consumer gets the latest partial, never a backlog. A partial handed out is
 * never mutated afterwards. An `error` event (or a non-2xx status) is thrown as a `StreamEventError` from
 * the iterator and from `getFinalResponse()`. Breaking out of the loop cancels the body, which ends the
 * call on the server.
 */
export function readStream<Partial = unknown, Final = unknown>(
  response: Response,
): StreamReader<Partial, Final> {
  let resolveFinal!: (value: Final) => void;
  let rejectFinal!: (error: unknown) => void;
  const final = new Promise<Final>((resolve, reject) => {
    resolveFinal = resolve;
    rejectFinal = reject;
  });
  final.catch(() => {});
  const sse = (response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
  let started = false;
  let settled = false;
  let value: unknown;
  let holds = false;
  let shown = false;
  // The operations of the deltas read since the last partial was rebuilt: applied together, so that the
  // containers they change are copied once per read, not once per event.
  let pending: DeltaOperation[] = [];
  const cursor: DeltaCursor = {};
  const flush = (): void => {
    if (pending.length === 0) return;
    value = applyDelta(holds ? value : undefined, pending, cursor);
    pending = [];
    holds = true;
    shown = false;
  };

  /** Applies one event; true when it ended the stream. */
  const apply = (wire: WireEvent): boolean => {
    switch (wire.event) {
      case "partial":
        pending = [];
        value = wire.data;
        holds = true;
        shown = false;
        return false;
      case "delta":
      case "message":
        if (!Array.isArray(wire.data)) throw new Error("readStream: a delta event's data is not a list.");
        for (const operation of wire.data as DeltaOperation[]) pending.push(operation);
        return false;
      case "final": {
        settled = true;
        flush();
        const data = wire.data;
        if (isRecord(data) && Array.isArray(data.delta)) {
          const { delta, ...facts } = data;
          const rebuilt = applyDelta(holds ? value : undefined, delta as DeltaOperation[], cursor);
          resolveFinal((Object.keys(facts).length > 0 ? { value: rebuilt, ...facts } : rebuilt) as Final);
        } else resolveFinal(data as Final);
        return true;
      }
      case "error": {
        settled = true;
        // SSE sends `{"error": {…}}` (the body /call would answer); an NDJSON line's data is the error itself.
        const data = wire.data;
        const body = isRecord(data) ? (isRecord(data.error) ? data.error : data) : { message: String(data) };
        rejectFinal(new StreamEventError(body));
        return true;
      }
      default:
        // An event this reader does not know (a newer server): skipped, as event-stream readers do.
        return false;
    }
  };

  async function* partials(): AsyncGenerator<Partial, void, undefined> {
    if (started) throw new Error("readStream: a response body can be read once; iterate the reader once.");
    started = true;
    if (!response.ok) {
      await failWithStatus(response, rejectFinal);
      await final;
      return;
    }
    if (!response.body) throw new Error("readStream: the response has no body to read.");
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const framing = sse ? new SseFraming() : new LineFraming();
    let done = false;
    try {
      while (!settled) {
        const chunk = await reader.read();
        const text = chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
        for (const wire of framing.push(text, chunk.done)) if (apply(wire)) break;
        flush();
        if (!settled && chunk.done) {
          rejectFinal(new Error("readStream: the stream ended without a final or error event."));
          settled = true;
        }
        if (holds && !shown) {
          shown = true;
          yield value as Partial;
        }
      }
      done = true;
    } finally {
      // Stopped early: cancel the body, which ends the call on the server.
      if (!done) await reader.cancel().catch(() => {});
      else reader.releaseLock();
    }
    await final;
  }

  return {
    [Symbol.asyncIterator]: partials,
    getFinalResponse: () => {
      if (!started) {
        // Nobody iterates: read the body for the final value alone.
        void (async () => {
          for await (const _ of partials()) void _;
        })().catch(() => {});
      }
      return final;
    },
  };
}

async function failWithStatus(response: Response, reject: (error: unknown) => void): Promise<void> {
  const text = await response.text().catch(() => "");
  let body: Record<string, unknown> = {
    status: response.status,
    message: `HTTP ${response.status}: ${text}`,
  };
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed) && isRecord(parsed.error)) body = { status: response.status, ...parsed.error };
  } catch {
    // Not JSON: the status and the text say what happened.
  }
  reject(new StreamEventError(body));
}

/** Splits text arriving in pieces into lines; a long line arriving in many pieces is scanned once. */
class LineSplitter {
  #buffer = "";
  /** The buffer has no newline before this offset. */
  #scanned = 0;

  /** The lines completed by `text` (with `end`, the rest too), without their `\n` or `\r\n`. */
  push(text: string, end: boolean): string[] {
    this.#buffer += text;
    const lines: string[] = [];
    let start = 0;
    while (true) {
      const newline = this.#buffer.indexOf("\n", Math.max(start, this.#scanned));
      if (newline < 0) break;
      lines.push(this.#buffer.slice(start, this.#buffer[newline - 1] === "\r" ? newline - 1 : newline));
      start = newline + 1;
    }
    this.#buffer = this.#buffer.slice(start);
    this.#scanned = this.#buffer.length;
    if (end && this.#buffer !== "") {
      lines.push(this.#buffer);
      this.#buffer = "";
    }
    return lines;
  }
}

/** Server-sent events: `event:` and `data:` lines, a blank line ends an event, `:` lines are comments. */
class SseFraming {
  readonly #lines = new LineSplitter();
  #event = "";
  #data: string[] = [];

  push(text: string, end: boolean): WireEvent[] {
    const events: WireEvent[] = [];
    const dispatch = () => {
      if (this.#data.length > 0) {
        events.push({ event: this.#event || "message", data: JSON.parse(this.#data.join("\n")) });
      }
      this.#event = "";
      this.#data = [];
    };
    for (const line of this.#lines.push(text, end)) {
      if (line === "") {
        dispatch();
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let fieldValue = colon < 0 ? "" : line.slice(colon + 1);
      if (fieldValue.startsWith(" ")) fieldValue = fieldValue.slice(1);
      if (field === "event") this.#event = fieldValue;
      else if (field === "data") this.#data.push(fieldValue);
    }
    if (end) dispatch();
    return events;
  }
}

/** NDJSON: one `{"<event>": data}` object per line. */
class LineFraming {
  readonly #lines = new LineSplitter();

  push(text: string, end: boolean): WireEvent[] {
    const events: WireEvent[] = [];
    for (const line of this.#lines.push(text, end)) {
      if (line.trim() === "") continue;
      const parsed: unknown = JSON.parse(line);
      if (!isRecord(parsed)) {
        throw new Error(`readStream: an NDJSON line is not an object: ${line.slice(0, 80)}`);
      }
      const [event] = Object.keys(parsed);
      if (event !== undefined) events.push({ event, data: parsed[event] });
    }
    return events;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
