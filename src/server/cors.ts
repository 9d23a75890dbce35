import { jsonResponse } from "./error-response.js";
import { SAPLING_HEADERS } from "./sapling-response.js";

/**
 * Cross-origin access for browser callers, off unless origins are configured. A preflight (`OPTIONS` with
 * `Access-Control-Request-Method`) is answered here, before authentication: browsers never send
 * credentials on a preflight, so checking the API key first would refuse every cross-origin call. Actual
 * requests from an allowed origin get `Access-Control-Allow-Origin`, and may read the `x-sapling-*` headers.
 */
export interface CorsPolicy {
  /** Allowed origins (`https://app.example.com`), or `*` for any. Empty: CORS is off. */
  origins: readonly string[];
}

const ALLOWED_HEADERS = "content-type, accept, authorization, x-sapling-api-key, x-baml-api-key";

/** Whether `request` is a CORS preflight. */
export function isPreflight(request: Request): boolean {
  return request.method === "OPTIONS" && request.headers.has("access-control-request-method");
}

/** The answer to a preflight: 204 with the CORS headers, or 403 saying why the origin is refused. */
export function answerPreflight(request: Request, policy: CorsPolicy): Response {
  const origin = request.headers.get("origin") ?? "";
  const allowed = allowedOrigin(origin, policy);
  if (allowed === undefined) {
    const message =
      policy.origins.length === 0
        ? "Cross-origin requests are off on this server; start it with --cors-origin ORIGIN " +
          "(or the handler's corsOrigins option) to allow a browser origin."
        : `The origin ${JSON.stringify(origin)} is not allowed; allowed: ${policy.origins.join(", ")}.`;
    return jsonResponse(403, {
      error: { status: 403, code: "CORS_ORIGIN_REFUSED", name: "HttpError", message },
    });
  }
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": allowed,
      "access-control-allow-methods": "GET, HEAD, POST, OPTIONS",
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": "600",
      vary: "origin",
    },
  });
}

/** `response` with the CORS headers an allowed origin needs (unchanged for other requests). */
export function withCorsHeaders(request: Request, response: Response, policy: CorsPolicy): Response {
  const allowed = allowedOrigin(request.headers.get("origin") ?? "", policy);
  if (allowed === undefined) return response;
  response.headers.set("access-control-allow-origin", allowed);
  response.headers.set("access-control-expose-headers", SAPLING_HEADERS.join(", "));
  response.headers.append("vary", "origin");
  return response;
}

function allowedOrigin(origin: string, policy: CorsPolicy): string | undefined {
  if (origin === "" || policy.origins.length === 0) return undefined;
  if (policy.origins.includes("*")) return "*";
  return policy.origins.includes(origin) ? origin : undefined;
}
