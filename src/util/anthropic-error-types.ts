/**
 * Anthropic's error types by HTTP status (docs.anthropic.com, "Errors"): the mock server writes them, and
 * a Message Batch's errored row is given back the status its request would have had on its own.
 */
export const anthropicErrorTypes: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

/** The HTTP status of an Anthropic error type (500 for a type not in the table). */
export function anthropicErrorStatus(type: unknown): number {
  const found = Object.entries(anthropicErrorTypes).find(([, name]) => name === type);
  return found ? Number(found[0]) : 500;
}
