import {
  BamlAbortError,
  BamlAllClientsFailedError,
  BamlClientError,
  BamlClientFinishReasonError,
  BamlClientHttpError,
  BamlClientOptionsError,
  BamlInvalidArgumentError,
  BamlMissingEnvVarError,
  BamlTimeoutError,
  BamlValidationError,
} from "../runtime/index.js";
import { hasErrorMark, markError } from "../util/index.js";

/** A request the server itself refuses (bad body, missing key, unknown route, too large). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra response headers (`allow` for 405). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
    markError(this, "HttpError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is HttpError {
    return hasErrorMark(value, "HttpError");
  }
}

/** The JSON body of every error answer: `{ "error": { status, code, name, message, … } }`. */
export interface ErrorBody {
  status: number;
  code: string;
  name: string;
  message: string;
  /** The model's answer, when it answered but the answer could not be used. */
  raw_output?: string;
  /** The provider's HTTP status, for upstream HTTP errors. */
  upstream_status?: number;
  /** A rejected cut answer (`FINISH_REASON`): what it held, parsed as far as it goes. */
  partial_value?: unknown;
  /** A rejected cut answer: the paths of the fields it did not finish. */
  incomplete_fields?: string[];
}

/**
 * Maps a failure to the status a caller can act on: 400 arguments, 422 unparseable answer (with the raw
 * text), 502 upstream failure, 504 upstream timeout, 500 server misconfiguration (a missing env var or
 * invalid client options is the operator's to fix, not the caller's), 499 when the caller went away.
 */
export function describeFailure(error: unknown): ErrorBody {
  if (error instanceof HttpError)
    return { status: error.status, code: error.code, name: error.name, message: error.message };
  if (BamlInvalidArgumentError.isInstance(error)) return body(400, error);
  if (BamlValidationError.isInstance(error)) return { ...body(422, error), raw_output: error.rawOutput };
  if (BamlTimeoutError.isInstance(error)) return body(504, error);
  if (BamlAbortError.isInstance(error)) return body(499, error);
  if (BamlMissingEnvVarError.isInstance(error) || BamlClientOptionsError.isInstance(error))
    return body(500, error);
  if (BamlAllClientsFailedError.isInstance(error)) {
    const timedOut =
      error.attempts.length > 0 &&
      error.attempts.every((attempt) => BamlTimeoutError.isInstance(attempt.error));
    const last = error.attempts.at(-1)?.error;
    const upstream = BamlClientHttpError.isInstance(last) ? { upstream_status: last.statusCode } : {};
    return { ...body(timedOut ? 504 : 502, error), ...upstream };
  }
  if (BamlClientHttpError.isInstance(error))
    return { ...body(502, error), upstream_status: error.statusCode };
  if (BamlClientFinishReasonError.isInstance(error)) {
    return {
      ...body(502, error),
      raw_output: error.rawOutput,
      ...(error.partialValue === undefined ? {} : { partial_value: error.partialValue }),
      ...(error.truncated ? { incomplete_fields: error.incompleteFields } : {}),
    };
  }
  if (BamlClientError.isInstance(error)) return body(502, error);
  // The arguments made a prompt longer than a template may build (docs/decisions/0023): the caller's to
  // shorten, not a fault of the server. (Told by its error mark and code: the server room does not import
  // prompt.)
  if (hasErrorMark(error, "TemplateError") && readCode(error as Error) === "limit_exceeded")
    return {
      status: 413,
      code: "PROMPT_TOO_LARGE",
      name: "TemplateError",
      message: (error as Error).message,
    };
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  return { status: 500, code: "INTERNAL", name, message };
}

function readCode(error: Error): unknown {
  return (error as Error & { code?: unknown }).code;
}

function body(status: number, error: { code: string; name: string; message: string }): ErrorBody {
  return { status, code: error.code, name: error.name, message: error.message };
}

/** A JSON answer with the given status. */
export function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** The error answer for `error`, as JSON with the mapped status. */
export function errorResponse(error: unknown): Response {
  const described = describeFailure(error);
  const headers: Record<string, string> = {
    ...(error instanceof HttpError ? error.headers : {}),
    ...(described.status === 401 ? { "www-authenticate": 'Basic realm="sapling"' } : {}),
  };
  return jsonResponse(described.status, { error: described }, headers);
}
