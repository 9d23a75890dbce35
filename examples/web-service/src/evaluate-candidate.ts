import { bodyLimit } from "hono/body-limit";
import { createFactory } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import type { RequestIdVariables } from "hono/request-id";
import { type BamlAsyncClient, Collector } from "../../resume/baml_client/index.js";
import { classifyFailure } from "./classify-failure.js";
import type { Logger } from "./log.js";

/** Larger resumes are refused (413) before the body is buffered or anything reaches the model. */
const MAX_BODY_BYTES = 256 * 1024;

/** What the app's middleware and handlers share through the context (`c.var`). */
export type AppEnv = {
  Variables: RequestIdVariables & {
    /** Fields the handler adds to the request's log event (the model call's client, tokens, …). */
    logFields: Record<string, unknown>;
  };
};

const factory = createFactory<AppEnv>();

/**
 * The handlers of `POST /v1/candidates/evaluate` with `{ "resume_text": "…" }`: calls the generated
 * client's `EvaluateResume` and answers the typed evaluation. Every request logs one structured event with
 * its latency and, on success, the model call's client and token usage (from a Collector); failures are
 * thrown and answered by the app's `onError` (see classify-failure.ts), and logged here with their detail.
 *
 * Use as `app.post("/v1/candidates/evaluate", ...evaluateCandidate({ client, log }))`.
 */
export function evaluateCandidate(options: { client: BamlAsyncClient; log: Logger }) {
  return factory.createHandlers(
    // First, so the event is timed around everything below it, the body limit included.
    async (c, next) => {
      const started = performance.now();
      await next();
      const failure = c.error ? classifyFailure(c.error) : undefined;
      options.log({
        event: failure ? "candidate.evaluation_failed" : "candidate.evaluated",
        ...(failure && { level: failure.status >= 500 ? "error" : "warn" }),
        request_id: c.var.requestId,
        status: c.res.status,
        latency_ms: Math.round((performance.now() - started) * 10) / 10,
        ...(failure
          ? { error_code: failure.code, reason: failure.reason, ...failure.logDetail }
          : c.var.logFields),
      });
    },
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new HTTPException(413, { message: `The body is larger than ${MAX_BODY_BYTES} bytes.` });
      },
    }),
    async (c) => {
      const requestId = c.var.requestId;
      const collector = new Collector(requestId);
      const resumeText = readResumeText(await c.req.json().catch(() => undefined));
      const evaluation = await options.client.EvaluateResume(resumeText, { collector, tags: { requestId } });
      const call = collector.last?.selectedCall;
      c.set("logFields", {
        model_latency_ms: call?.timing.durationMs ?? null,
        llm_client: call?.clientName ?? null,
        input_tokens: collector.usage.inputTokens,
        output_tokens: collector.usage.outputTokens,
        decision: evaluation.decision,
      });
      return c.json(evaluation);
    },
  );
}

/** The resume text from a parsed body (`undefined` when the body was not JSON), or a 400. */
function readResumeText(body: unknown): string {
  const resumeText = (body as { resume_text?: unknown } | null | undefined)?.resume_text;
  if (typeof resumeText !== "string" || resumeText.trim() === "")
    throw new HTTPException(400, {
      message: 'The body must be JSON with a non-empty string resume_text: {"resume_text": "…"}.',
    });
  return resumeText;
}
