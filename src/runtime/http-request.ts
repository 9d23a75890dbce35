import type { HttpRequest as ModelRequest } from "../llm/index.js";

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
export interface HttpRequest extends Omit<ModelRequest, "body"> {
  body: HttpBody;
}

/** BAML's name for the request type (`import type { HTTPRequest } from "@boundaryml/baml"`). */
export type HTTPRequest = HttpRequest;

export function toHttpRequest(request: ModelRequest): HttpRequest {
  const body = { ...request.body };
  // A body field of the same name wins over the helper: the Responses API's `text { format … }` is part
  // of the request, and hiding it would make `JSON.stringify(request.body)` send a different request.
  const helpers: PropertyDescriptorMap = {};
  if (!Object.hasOwn(body, "json")) helpers.json = { value: () => ({ ...request.body }), enumerable: false };
  if (!Object.hasOwn(body, "text"))
    helpers.text = { value: () => JSON.stringify(request.body), enumerable: false };
  Object.defineProperties(body, helpers);
  return { ...request, body: body as HttpBody };
}
