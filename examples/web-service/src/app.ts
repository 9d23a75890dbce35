import type { BamlAsyncClient } from "../../resume/baml_client/index.js";
import { createEvaluateCandidateHandler } from "./evaluate-candidate.js";
import type { Logger } from "./log.js";

/**
 * The service as one web-standard `fetch` function: the evaluation route, a health check, and request ids
 * (the caller's `x-request-id`, or a new one) echoed on every answer so a log line and a response can be
 * matched. Unknown routes are 404 and errors never leak a stack.
 */
export function createApp(options: {
  client: BamlAsyncClient;
  log: Logger;
}): (request: Request) => Promise<Response> {
  const evaluate = createEvaluateCandidateHandler(options);
  return async (request) => {
    const requestId = request.headers.get("x-request-id") ?? crypto.randomUUID();
    const { pathname } = new URL(request.url);
    let response: Response;
    if (pathname === "/v1/candidates/evaluate") {
      response =
        request.method === "POST"
          ? await evaluate(request, requestId)
          : new Response(JSON.stringify({ error: { code: "METHOD_NOT_ALLOWED", reason: "Use POST." } }), {
              status: 405,
              headers: { allow: "POST", "content-type": "application/json" },
            });
    } else if (pathname === "/healthz") {
      response = new Response("ok");
    } else {
      response = new Response(
        JSON.stringify({ error: { code: "NOT_FOUND", reason: `No route ${pathname}.` } }),
        {
          status: 404,
          headers: { "content-type": "application/json" },
        },
      );
    }
    response.headers.set("x-request-id", requestId);
    return response;
  };
}
