import { StreamEventError } from "../stream-client/index.js";
import { hasErrorMark, markError } from "../util/index.js";

/**
 * A failed call as a hook reports it: the error the server described (over a stream's `error` event, or a
 * non-2xx answer), rebuilt on the client with what a page needs to show or act on it. `name` is the
 * server's error class (`BamlValidationError`, `BamlClientFinishReasonError`, `BamlTimeoutError`, …), so
 * code written for BAML's hooks that branches on `error.name` keeps working.
 */
export class SaplingActionError extends Error {
  /** The error's stable code (`VALIDATION`, `FINISH_REASON`, `TIMEOUT`, …), when the server sent one. */
  readonly code: string | undefined;
  /** The HTTP status the server answered (or would have answered, for a stream), when known. */
  readonly status: number | undefined;
  /** The model's answer, when it answered but the answer could not be used (a refusal, a cut answer). */
  readonly rawOutput: string | undefined;
  /** The error object as the server sent it. */
  readonly body: Readonly<Record<string, unknown>>;

  constructor(body: Record<string, unknown>) {
    super(typeof body.message === "string" ? body.message : JSON.stringify(body));
    this.name = typeof body.name === "string" && body.name !== "" ? body.name : "SaplingActionError";
    this.body = body;
    this.code = typeof body.code === "string" ? body.code : undefined;
    this.status = typeof body.status === "number" ? body.status : undefined;
    this.rawOutput = typeof body.raw_output === "string" ? body.raw_output : undefined;
    markError(this, "SaplingActionError");
  }

  /** BAML's name for `rawOutput`. */
  get raw_output(): string | undefined {
    return this.rawOutput;
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is SaplingActionError {
    return hasErrorMark(value, "SaplingActionError");
  }
}

/** What the hooks store as `error`: the server's description when there is one, else the error itself. */
export type HookError = SaplingActionError | Error;

/** Turns whatever a call threw into the `error` a hook shows. */
export function toHookError(error: unknown): HookError {
  if (error instanceof SaplingActionError) return error;
  if (error instanceof StreamEventError) return new SaplingActionError(error.body);
  if (error instanceof Error) return error;
  return new SaplingActionError({ message: String(error) });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
