/**
 * Keeping credentials out of everything printable: request dumps (`b.request`, collectors, logs) and error
 * messages. Headers are redacted by name, URLs by query-parameter name, free text by the known secret values.
 * The one redaction module of the package: the runtime's Collector logs use the same header rule and the
 * same marker (`src/runtime/redact.ts` builds on it), and `sapling-llm/runtime` re-exports it.
 */
import type { HttpRequest } from "./language-model.js";

export const redactedText = "[REDACTED]";

const secretHeaderName =
  /^(authorization|proxy-authorization|cookie|set-cookie)$|api[-_]?key|token|secret|password|credential|access[-_]?key|session/i;

/** Whether a header (or a field named like one) carries a credential by its name. */
export function isSecretHeaderName(name: string): boolean {
  return secretHeaderName.test(name);
}
const secretQueryName = /^(key|api[-_]?key|access[-_]?token|token|sig|signature|secret|password)$/i;

/** A copy of `headers` with credential-bearing values (by header name) replaced by `[REDACTED]`. */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    result[name] = isSecretHeaderName(name) ? redactedText : value;
  }
  return result;
}

/** `url` with secret query parameters (`key`, `api_key`, `token`, …) replaced by `[REDACTED]`. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf("?");
  if (queryStart < 0) return url;
  const hashStart = url.indexOf("#", queryStart);
  const query = url.slice(queryStart + 1, hashStart < 0 ? undefined : hashStart);
  const redactedQuery = query
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const name = decodeURIComponent(equals < 0 ? pair : pair.slice(0, equals));
      return equals >= 0 && secretQueryName.test(name) ? `${pair.slice(0, equals)}=${redactedText}` : pair;
    })
    .join("&");
  return `${url.slice(0, queryStart)}?${redactedQuery}${hashStart < 0 ? "" : url.slice(hashStart)}`;
}

/**
 * The printable form of a request (`b.request` returns the real key, by design, as BAML does): same body,
 * redacted headers and URL.
 */
export function redactRequest<Request extends HttpRequest>(request: Request): Request {
  return { ...request, url: redactUrl(request.url), headers: redactHeaders(request.headers) };
}

/** `text` with every occurrence of the given secret values replaced (values shorter than 4 are ignored). */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret === undefined || secret.length < 4) continue;
    result = result.split(secret).join(redactedText);
  }
  return result;
}
