import { redactLoggedHeaders, redactText, redactValue } from "../llm/index.js";
import type { HttpRequestLog } from "./collector.js";
import { withBodyReaders } from "./http-request.js";

/**
 * Wraps `fetch` for one attempt so the Collector sees the exact provider request that was sent (the
 * model's POST; media downloads, which are GETs, are not the request), with secrets redacted before it is
 * stored.
 */
export function recordingFetch(
  base: typeof fetch,
  secrets: readonly string[],
  onRequest: (request: HttpRequestLog) => void,
): typeof fetch {
  const wrapped = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    if (method === "POST") {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      onRequest({
        url: redactText(url, secrets),
        method,
        headers: redactLoggedHeaders(headerRecord(init?.headers), secrets),
        body: withBodyReaders(redactValue(parseBody(init?.body), secrets)),
      });
    }
    return base(input, init);
  };
  return wrapped as typeof fetch;
}

function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  if (Array.isArray(headers))
    return Object.fromEntries(headers.map(([name, value]) => [name ?? "", value ?? ""]));
  return { ...(headers as Record<string, string>) };
}

function parseBody(body: BodyInit | null | undefined): unknown {
  if (typeof body !== "string") return body === undefined || body === null ? null : "[binary body]";
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}
