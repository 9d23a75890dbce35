import type { SchemaStreamParser } from "../typed-schema/index.js";

/** Options of `streamObjectResponse`. */
export interface StreamObjectResponseOptions {
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Called with the final value once the answer parsed (to store it, log it, …). */
  onFinal?: (value: unknown) => void;
  /** Called when the answer did not parse or the text stream failed; the response says so too. */
  onError?: (error: unknown) => void;
}

/**
 * A route's answer for `useSaplingObject` (or any `readStream` reader): the model's text stream, parsed by
 * Sapling as it arrives, sent as NDJSON lines — `{"partial":…}` whenever the value changed, then
 * `{"final":…}`, or `{"error":{name, code, message, raw_output, issues}}` when the whole answer holds no
 * value of the schema. `parser` is `createStreamParser(schema)` of `sapling-llm/zod` or
 * `sapling-llm/json-schema`; `textStream` any async iterable of text (the AI SDK's `textStream`, a
 * provider SDK's deltas, `b.stream`'s raw text…).
 *
 * Pulled: a partial is built when the client reads the next line, so a slow client gets the latest
 * partial, never a backlog. A client that goes away cancels the body, which returns the text stream's
 * iterator (ending the model call behind it, for streams that do so).
 *
 * ```ts
 * export async function POST(request: Request) {
 *   const { topic } = await request.json();
 *   const { textStream } = streamText({ model, prompt: `${topic}\n${outputFormat(schema)}` });
 *   return streamObjectResponse(textStream, createStreamParser(schema));
 * }
 * ```
 */
export function streamObjectResponse<T, P>(
  textStream: AsyncIterable<string>,
  parser: SchemaStreamParser<T, P>,
  options: StreamObjectResponseOptions = {},
): Response {
  const encoder = new TextEncoder();
  const line = (value: unknown): Uint8Array => encoder.encode(`${JSON.stringify(value)}\n`);
  const iterator = textStream[Symbol.asyncIterator]();
  let shown = false;
  const body = new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      try {
        // Read until the value changes or the text ends: chunks in between only advance the parser.
        while (true) {
          const step = await iterator.next();
          if (step.done) break;
          parser.append(step.value);
          const partial = parser.read();
          if (partial.changed || !shown) {
            shown = true;
            controller.enqueue(line({ partial: partial.value }));
            return;
          }
        }
        const final = parser.finish();
        options.onFinal?.(final.value);
        controller.enqueue(line({ final: final.value }));
      } catch (error) {
        options.onError?.(error);
        controller.enqueue(line({ error: describeObjectError(error, parser.text) }));
      }
      controller.close();
    },
    cancel: async () => {
      await iterator.return?.();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
      ...options.headers,
    },
  });
}

/** An error as the stream reports it: never a stack; the model's text so far, so the page can show it. */
function describeObjectError(error: unknown, text: string): Record<string, unknown> {
  const known = error as { name?: unknown; message?: unknown; code?: unknown; issues?: unknown };
  return {
    name: typeof known?.name === "string" ? known.name : "Error",
    ...(typeof known?.code === "string" ? { code: known.code } : {}),
    message: typeof known?.message === "string" ? known.message : String(error),
    raw_output: text,
    ...(Array.isArray(known?.issues) && known.issues.length > 0
      ? {
          issues: known.issues.map((issue: { path?: unknown; message?: unknown }) => ({
            path: issue.path,
            message: issue.message,
          })),
        }
      : {}),
  };
}
