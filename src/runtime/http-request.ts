import type { ProviderRequest } from "../llm/index.js";

/** BAML's request body reader: the JSON body also answers `json()` and `text()`, as BAML's `HTTPBody` does. */
export interface HttpBody extends Record<string, unknown> {
  /**
   * The body as a fresh JSON object. Typed `any`, as in BAML, because its shape is the provider's (code
   * written for BAML reads `json().messages[0].content` without casts).
   */
  // biome-ignore lint/suspicious/noExplicitAny: BAML's HTTPBody.json() is `any`; code written for it relies on that
  json(): any;
  text(): string;
}

/** BAML's name for the body type. */
export type HTTPBody = HttpBody;

/**
 * The provider request a call would send (`b.request.Fn`), key included, for sending it yourself. The body
 * is the JSON object itself, so `JSON.stringify(request.body)` is what goes on the wire; `body.json()` and
 * `body.text()` (not enumerable, so never serialized) keep application code written for BAML working — except
 * when the body has a field of that name (the Responses API's `text`), which is kept as the field.
 */
export interface HttpRequest extends Omit<ProviderRequest, "body"> {
  body: HttpBody;
}

/** BAML's name for the request type (`import type { HTTPRequest } from "@boundaryml/baml"`). */
export type HTTPRequest = HttpRequest;

export function toHttpRequest(request: ProviderRequest): HttpRequest {
  return { ...request, body: withBodyReaders({ ...request.body }) };
}

/**
 * A body value that also answers BAML's `json()` and `text()` (not enumerable, so never serialized): the
 * value itself for objects and lists (a Collector's logged bodies, `b.request`'s body). A body field named `json` or `text` wins over the helper: the Responses
 * API's `text { format … }` is part of the request, and hiding it would change what is sent.
 */
export function withBodyReaders(value: unknown): HttpBody {
  // A body that is not a JSON object or list (an error's text) is wrapped as `{ raw }`.
  if (typeof value !== "object" || value === null) return withBodyReaders({ raw: value });
  const body = value as Record<string, unknown>;
  const helpers: PropertyDescriptorMap = {};
  if (!Object.hasOwn(body, "json"))
    helpers.json = { value: () => JSON.parse(JSON.stringify(body)) as unknown, enumerable: false };
  if (!Object.hasOwn(body, "text")) helpers.text = { value: () => JSON.stringify(body), enumerable: false };
  Object.defineProperties(body, helpers);
  return body as HttpBody;
}
