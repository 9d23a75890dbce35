import type { HttpRequest as ModelRequest } from "../llm/index.js";

/** BAML's request body reader: the JSON body also answers `json()` and `text()`, as BAML's `HTTPBody` does. */
export interface HttpBody extends Record<string, unknown> {
  json(): Record<string, unknown>;
  text(): string;
}

/**
 * The provider request a call would send (`b.request.Fn`), key included, for sending it yourself. The body
 * is the JSON object itself, so `JSON.stringify(request.body)` is what goes on the wire; `body.json()` and
 * `body.text()` (not enumerable, so never serialized) keep application code written for BAML working.
 */
export interface HttpRequest extends Omit<ModelRequest, "body"> {
  body: HttpBody;
}

export function toHttpRequest(request: ModelRequest): HttpRequest {
  const body = { ...request.body };
  Object.defineProperties(body, {
    json: { value: () => ({ ...request.body }), enumerable: false },
    text: { value: () => JSON.stringify(request.body), enumerable: false },
  });
  return { ...request, body: body as HttpBody };
}
