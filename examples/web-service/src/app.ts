import type { Context } from "hono";
import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { BamlAsyncClient } from "../../resume/baml_client/index.js";
import { classifyFailure } from "./classify-failure.js";
import { type AppEnv, evaluateCandidate } from "./evaluate-candidate.js";
import type { Logger } from "./log.js";

/**
 * The service as a Hono app: the evaluation route and a health check. `app.fetch` is a web-standard
 * `(Request) => Promise<Response>`, so the same app runs on Node (src/server.ts), Bun, Deno or Workers.
 */
export function createApp(options: { client: BamlAsyncClient; log: Logger }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // The caller's x-request-id (or a new one) on every answer and log event, so the two can be matched.
  app.use(requestId());
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        errorResponse(c, 405, "METHOD_NOT_ALLOWED", `Use ${methods.join(" or ")}.`, {
          allow: methods.join(", "),
        }),
    }),
  );
  app.get("/healthz", (c) => c.text("ok"));
  app.post("/v1/candidates/evaluate", ...evaluateCandidate(options));
  app.notFound((c) => errorResponse(c, 404, "NOT_FOUND", `No route ${c.req.path}.`));
  // Every thrown error ends here as a status the caller can act on; stacks go to the log, never out.
  app.onError((error, c) => {
    const failure = classifyFailure(error);
    return errorResponse(c, failure.status, failure.code, failure.reason);
  });
  return app;
}

/** Every error has one shape: `{"error": {code, reason, request_id}}`. */
function errorResponse(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  code: string,
  reason: string,
  headers?: Record<string, string>,
): Response {
  return c.json({ error: { code, reason, request_id: c.var.requestId } }, status, headers);
}
