import {
  type BamlAsyncClient,
  BamlError,
  BamlInvalidArgumentError,
  BamlValidationError,
  Collector,
} from "../../resume/baml_client/index.js";
import type { Logger } from "./log.js";

/** Larger resumes are refused (413) before anything reaches the model. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * `POST /v1/candidates/evaluate` with `{ "resume_text": "…" }`: calls the generated client's
 * `EvaluateResume` and answers the typed evaluation. Every request logs one structured event with its
 * latency (and the model call's client and token usage, from a Collector). Failures map to statuses a
 * caller can act on: 400 for a bad body, 422 when the model answered but its answer could not be parsed
 * (the raw answer is logged, not returned), 502 with the reason for any other model failure.
 *
 * Web-standard `Request → Response`, so the same function runs under node:http, Hono, Bun, Deno or Workers.
 */
export function createEvaluateCandidateHandler(options: {
  client: BamlAsyncClient;
  log: Logger;
}): (request: Request, requestId: string) => Promise<Response> {
  return async (request, requestId) => {
    const started = performance.now();
    const latency = () => Math.round((performance.now() - started) * 10) / 10;
    const collector = new Collector(requestId);
    try {
      const resumeText = await readResumeText(request);
      const evaluation = await options.client.EvaluateResume(resumeText, { collector, tags: { requestId } });
      const call = collector.last?.selectedCall;
      options.log({
        event: "candidate.evaluated",
        request_id: requestId,
        status: 200,
        latency_ms: latency(),
        model_latency_ms: call?.timing.durationMs ?? null,
        llm_client: call?.clientName ?? null,
        input_tokens: collector.usage.inputTokens,
        output_tokens: collector.usage.outputTokens,
        decision: evaluation.decision,
      });
      return json(200, evaluation);
    } catch (error) {
      const failure = classify(error);
      options.log({
        event: "candidate.evaluation_failed",
        level: failure.status >= 500 ? "error" : "warn",
        request_id: requestId,
        status: failure.status,
        latency_ms: latency(),
        error_code: failure.code,
        reason: failure.reason,
        ...failure.logDetail,
      });
      return json(failure.status, {
        error: { code: failure.code, reason: failure.reason, request_id: requestId },
      });
    }
  };
}

class BadRequest extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

async function readResumeText(request: Request): Promise<string> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES)
    throw new BadRequest(413, `The body is larger than ${MAX_BODY_BYTES} bytes.`);
  const text = await request.text();
  if (new TextEncoder().encode(text).byteLength > MAX_BODY_BYTES)
    throw new BadRequest(413, `The body is larger than ${MAX_BODY_BYTES} bytes.`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new BadRequest(400, 'The body must be JSON like {"resume_text": "…"}.');
  }
  const resumeText = (body as { resume_text?: unknown } | null)?.resume_text;
  if (typeof resumeText !== "string" || resumeText.trim() === "")
    throw new BadRequest(400, 'resume_text must be a non-empty string: {"resume_text": "…"}.');
  return resumeText;
}

interface Failure {
  status: number;
  code: string;
  reason: string;
  /** Extra log fields, never sent to the caller. */
  logDetail?: Record<string, unknown>;
}

function classify(error: unknown): Failure {
  if (error instanceof BadRequest)
    return { status: error.status, code: "BAD_REQUEST", reason: error.message };
  const validation: BamlValidationError | undefined = BamlValidationError.isInstance(error)
    ? error
    : undefined;
  if (validation) {
    // The parser's message quotes the answer; callers get the gist, the log gets the raw text.
    return {
      status: 422,
      code: validation.code,
      reason: "The model answered, but its answer could not be parsed into a candidate evaluation.",
      logDetail: { parse_error: validation.message, raw_output: validation.rawOutput.slice(0, 2000) },
    };
  }
  const failure: BamlError | undefined = BamlError.isInstance(error) ? error : undefined;
  if (failure) {
    const status = BamlInvalidArgumentError.isInstance(failure) ? 400 : 502;
    return { status, code: failure.code, reason: failure.message };
  }
  return {
    status: 500,
    code: "INTERNAL",
    reason: "Unexpected error; see the server log.",
    logDetail: { error: error instanceof Error ? (error.stack ?? error.message) : String(error) },
  };
}

function json(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}
