import { type FunctionLog, summarizeCall } from "../runtime/index.js";
import type { JsonSchema } from "./api-schema.js";

/**
 * What `sapling serve` says beyond BAML's body — one rule, in one place, that every later addition plugs
 * into (latency, tokens, cost…):
 *
 * - The body is BAML's by default: `/call` answers the parsed value, `/stream`'s `final` event carries it.
 * - `x-sapling-*` response headers are always sent on `/call` answers. A stream's headers leave before the
 *   answer exists, so `/stream`'s `final` event carries the same `x-sapling-*: value` lines (fields that
 *   event-stream readers skip unless they look for them).
 * - A Sapling envelope `{ value, finish_reason, truncated, incomplete_fields, repairs, usage, client }` is
 *   the body (or the `final` event's data) only when the request's `Accept` names
 *   `application/vnd.sapling+json`.
 * - `/stream` sends whole partials by default (BAML's events); the delta format (only what changed, see
 *   docs/runtime.md) only when the request's `Accept` names `application/vnd.sapling-delta+json`. The two
 *   media types combine: the envelope's facts then ride on the delta format's `final` event.
 *
 * Each fact is one row of `FACTS`: its header, its envelope field and its schema, read from the call's
 * `FunctionLog`. A new fact is a new row; the headers, the envelope, CORS's exposed headers and the
 * OpenAPI document follow from it.
 */
export const SAPLING_MEDIA_TYPE = "application/vnd.sapling+json";
/** The media type a `/stream` request's `Accept` names to get the delta format. */
export const SAPLING_DELTA_MEDIA_TYPE = "application/vnd.sapling-delta+json";

interface ResponseFact {
  /** The response header (lower case), or `undefined` for an envelope-only fact. */
  header?: string;
  /** The envelope field (snake_case, as the error body's fields). */
  field: string;
  description: string;
  schema: JsonSchema;
  /** The fact for this call; `undefined` when it is not known (no header, `null` in the envelope). */
  read: (log: FunctionLog) => unknown;
  /** The header text of a known value (default `String(value)`); `undefined` sends no header. */
  headerText?: (value: unknown) => string | undefined;
  /** The header's schema in the OpenAPI document (default: a string). */
  headerSchema?: JsonSchema;
}

const FACTS: readonly ResponseFact[] = [
  {
    header: "x-sapling-finish-reason",
    field: "finish_reason",
    description:
      "Why the model stopped, as its provider said it (`stop`, `length`, `end_turn`, `MAX_TOKENS`…).",
    schema: { type: ["string", "null"] },
    read: (log) => log.selectedCall?.finishReason ?? undefined,
  },
  {
    header: "x-sapling-truncated",
    field: "truncated",
    description:
      "Whether the answer was cut (token limit, or it ended inside a value). A cut answer is still " +
      'returned, as in BAML: `finish_reason_deny_list ["length"]` on the client makes it fail instead.',
    schema: { type: "boolean" },
    read: (log) => log.truncated,
    headerSchema: { type: "string", enum: ["true", "false"] },
  },
  {
    header: "x-sapling-incomplete",
    field: "incomplete_fields",
    description:
      "The paths of the fields the cut answer did not finish (`$.name`, `$.tags`), comma-separated in the " +
      "header (sent only when there are some).",
    schema: { type: "array", items: { type: "string" } },
    read: (log) => log.incompleteFields,
    headerText: (value) => ((value as string[]).length > 0 ? (value as string[]).join(", ") : undefined),
  },
  {
    header: "x-sapling-repairs",
    field: "repairs",
    description:
      "The repairs the parser made to the answer (the header counts them; the envelope lists them).",
    schema: {
      type: "array",
      items: {
        type: "object",
        properties: {
          kind: { type: "string" },
          path: { type: "string" },
          detail: { type: "string" },
          span: {
            type: "object",
            description: "Where in the raw answer the repair happened (UTF-16 offsets, end exclusive).",
            properties: { start: { type: "integer" }, end: { type: "integer" } },
            required: ["start", "end"],
          },
        },
        required: ["kind", "path", "detail"],
      },
    },
    read: (log) => log.repairs,
    headerText: (value) => String((value as unknown[]).length),
    headerSchema: { type: "string", pattern: "^[0-9]+$" },
  },
  {
    header: "x-sapling-latency-ms",
    field: "latency_ms",
    description: "How long the call took, every attempt and wait included, in milliseconds.",
    schema: { type: ["integer", "null"] },
    read: (log) => summarizeCall(log).latencyMs ?? undefined,
    headerSchema: { type: "string", pattern: "^[0-9]+$" },
  },
  {
    header: "x-sapling-input-tokens",
    field: "input_tokens",
    description: "Input tokens summed over every attempt, cache reads and writes included (when reported).",
    schema: { type: ["integer", "null"] },
    read: (log) => summarizeCall(log).inputTokens ?? undefined,
    headerSchema: { type: "string", pattern: "^[0-9]+$" },
  },
  {
    header: "x-sapling-output-tokens",
    field: "output_tokens",
    description: "Output tokens summed over every attempt, reasoning included (when reported).",
    schema: { type: ["integer", "null"] },
    read: (log) => summarizeCall(log).outputTokens ?? undefined,
    headerSchema: { type: "string", pattern: "^[0-9]+$" },
  },
  {
    header: "x-sapling-cost-usd",
    field: "cost_usd",
    description:
      "What the call cost in US dollars, from the price table (null, and no header, for a model it does not name).",
    schema: { type: ["number", "null"] },
    read: (log) => summarizeCall(log).costUsd ?? undefined,
    headerSchema: { type: "string", pattern: "^[0-9.e-]+$" },
  },
  {
    field: "usage",
    description: "Token counts summed over every attempt (null where the provider reported none).",
    schema: {
      type: "object",
      properties: {
        input_tokens: { type: ["integer", "null"] },
        output_tokens: { type: ["integer", "null"] },
        cached_input_tokens: { type: ["integer", "null"] },
        cache_write_input_tokens: { type: ["integer", "null"] },
        reasoning_tokens: { type: ["integer", "null"] },
      },
    },
    read: (log) => ({
      input_tokens: log.usage.inputTokens,
      output_tokens: log.usage.outputTokens,
      cached_input_tokens: log.usage.cachedInputTokens,
      cache_write_input_tokens: log.usage.cacheWriteInputTokens,
      reasoning_tokens: log.usage.reasoningTokens,
    }),
  },
  {
    field: "client",
    description: "The client whose answer was used.",
    schema: { type: ["string", "null"] },
    read: (log) => log.selectedCall?.clientName ?? undefined,
  },
];

/** Every `x-sapling-*` header the server may send (CORS exposes them to browser code). */
export const SAPLING_HEADERS: readonly string[] = FACTS.flatMap((fact) => (fact.header ? [fact.header] : []));

/** Whether the request asked for the Sapling envelope (its `Accept` names the media type). */
export function wantsSaplingEnvelope(request: Request): boolean {
  return accepts(request, SAPLING_MEDIA_TYPE);
}

/** Whether a `/stream` request asked for the delta format (its `Accept` names the delta media type). */
export function wantsDeltaStream(request: Request): boolean {
  return accepts(request, SAPLING_DELTA_MEDIA_TYPE);
}

function accepts(request: Request, mediaType: string): boolean {
  const accept = request.headers.get("accept") ?? "";
  return accept.split(",").some((range) => range.split(";")[0]?.trim().toLowerCase() === mediaType);
}

/** The `x-sapling-*` headers for a call's log. */
export function saplingHeaders(log: FunctionLog | null): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!log) return headers;
  for (const fact of FACTS) {
    if (!fact.header) continue;
    const value = fact.read(log);
    if (value === undefined) continue;
    const text = fact.headerText ? fact.headerText(value) : String(value);
    if (text !== undefined) headers[fact.header] = headerSafe(text);
  }
  return headers;
}

/**
 * A header value a provider's text cannot break: every character but visible ASCII and space (CR, LF,
 * controls, anything beyond Latin-1, which `Headers` refuses) and `%` itself percent-encoded as UTF-8, so
 * `decodeURIComponent` gives the text back. A finish reason of `"stop\r\nx-evil: 1"` is one header,
 * `stop%0D%0Ax-evil: 1`, never a second header or a 500.
 */
export function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x24\x26-\x7e]/gu, (character) => {
    try {
      return encodeURIComponent(character);
    } catch {
      // A lone surrogate has no UTF-8 form: it stands for U+FFFD, as a decoder would read it.
      return "%EF%BF%BD";
    }
  });
}

/** The Sapling envelope: the value plus every fact of the call. */
export function saplingEnvelope(value: unknown, log: FunctionLog | null): Record<string, unknown> {
  const envelope: Record<string, unknown> = { value };
  for (const fact of FACTS) envelope[fact.field] = log ? (fact.read(log) ?? null) : null;
  return envelope;
}

/** The JSON Schema of the envelope around a value of schema `value` (for the OpenAPI document). */
export function saplingEnvelopeSchema(value: JsonSchema): JsonSchema {
  return {
    type: "object",
    description: `Sent instead of the bare value when the request's Accept names ${SAPLING_MEDIA_TYPE}.`,
    properties: {
      value,
      ...Object.fromEntries(
        FACTS.map((fact) => [fact.field, { ...fact.schema, description: fact.description }]),
      ),
    },
    required: ["value", ...FACTS.map((fact) => fact.field)],
  };
}

/** The response headers of a `/call` answer, for the OpenAPI document. */
export function saplingHeadersSchema(): Record<string, JsonSchema> {
  return Object.fromEntries(
    FACTS.flatMap((fact) =>
      fact.header
        ? [[fact.header, { description: fact.description, schema: fact.headerSchema ?? { type: "string" } }]]
        : [],
    ),
  );
}
