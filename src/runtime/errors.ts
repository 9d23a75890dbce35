/**
 * Runtime error classes, named as in BAML's TypeScript client so application code that catches
 * `BamlValidationError` keeps working. Each has a stable `code` and a static `isInstance` that works across
 * copies of the package (two bundled copies have different classes, so `instanceof` fails; a registered
 * symbol brand does not; util/error-brand.ts).
 */

import { hasErrorMark, markError } from "../util/index.js";

/** Base class of every runtime failure. */
export class BamlError extends Error {
  readonly code: string = "BAML_ERROR";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BamlError";
    markError(this, "BamlError");
  }
  static isInstance(value: unknown): value is BamlError {
    return hasErrorMark(value, "BamlError");
  }
  /** BAML's name: the full message (Sapling's messages already carry the detail). */
  get detailed_message(): string {
    return this.message;
  }
}

/** BAML's `isBamlError`: any runtime error of this package (or another copy of it). */
export function isBamlError(value: unknown): value is BamlError {
  return BamlError.isInstance(value);
}

/** An argument does not match the function's parameter type, or an option is malformed. */
export class BamlInvalidArgumentError extends BamlError {
  override readonly code: string = "INVALID_ARGUMENT";
  constructor(
    message: string,
    /** Where in the arguments, e.g. `resume.skills[2]`; empty when not about one value. */
    readonly path = "",
  ) {
    super(message);
    this.name = "BamlInvalidArgumentError";
    markError(this, "BamlInvalidArgumentError");
  }
  static override isInstance(value: unknown): value is BamlInvalidArgumentError {
    return hasErrorMark(value, "BamlInvalidArgumentError");
  }
}

/**
 * A media argument given by URL could not be used: the server's media URL policy refused it, it is larger
 * than the download limit, or its host failed or was too slow. The URL is the caller's, so this is an
 * argument error (HTTP 400 in `sapling serve`), not the model provider's; the message names the media host
 * and never carries what that host sent.
 */
export class BamlMediaUrlError extends BamlInvalidArgumentError {
  override readonly code: string = "MEDIA_URL";
  constructor(
    message: string,
    /** `refused`, `too_large`, `timeout`, `http_status` or `connection`. */
    readonly reason: string,
    /** The media URL's `host[:port]`. */
    readonly host: string,
  ) {
    super(message);
    this.name = "BamlMediaUrlError";
    markError(this, "BamlMediaUrlError");
  }
  static override isInstance(value: unknown): value is BamlMediaUrlError {
    return hasErrorMark(value, "BamlMediaUrlError");
  }
}

/** A client could not produce an answer (network, configuration, provider error). */
export class BamlClientError extends BamlError {
  override readonly code: string = "CLIENT_ERROR";
  constructor(
    message: string,
    readonly clientName: string,
    readonly provider: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "BamlClientError";
    markError(this, "BamlClientError");
  }
  static override isInstance(value: unknown): value is BamlClientError {
    return hasErrorMark(value, "BamlClientError");
  }
  /** BAML's name for `clientName`. */
  get client_name(): string {
    return this.clientName;
  }
}

/** The provider answered with a non-success HTTP status. */
export class BamlClientHttpError extends BamlClientError {
  override readonly code: string = "CLIENT_HTTP_ERROR";
  // biome-ignore lint/complexity/useMaxParams: a public constructor, positional as BAML's error classes are.
  constructor(
    message: string,
    clientName: string,
    provider: string,
    /** The HTTP status code. */
    readonly statusCode: number,
    /** The response body (secrets redacted), for the provider's explanation. */
    readonly body: string,
    /** The provider's `retry-after`, in milliseconds, when it sent one (429, 503). */
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, clientName, provider, options);
    this.name = "BamlClientHttpError";
    markError(this, "BamlClientHttpError");
  }
  static override isInstance(value: unknown): value is BamlClientHttpError {
    return hasErrorMark(value, "BamlClientHttpError");
  }
  /** BAML's name for `statusCode`. */
  get status_code(): number {
    return this.statusCode;
  }
  /** BAML's name for `body`. */
  get raw_response(): string {
    return this.body;
  }
}

/** A client's `http` timeout elapsed (connect, request, first token, idle or total). */
export class BamlTimeoutError extends BamlClientError {
  override readonly code: string = "TIMEOUT";
  constructor(
    message: string,
    clientName: string,
    provider: string,
    readonly timeoutMs: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, clientName, provider, options);
    this.name = "BamlTimeoutError";
    markError(this, "BamlTimeoutError");
  }
  static override isInstance(value: unknown): value is BamlTimeoutError {
    return hasErrorMark(value, "BamlTimeoutError");
  }
}

/** A client option reads `env.NAME` and the variable is not set. */
export class BamlMissingEnvVarError extends BamlClientError {
  override readonly code: string = "ENV_VAR_MISSING";
  constructor(
    readonly variable: string,
    clientName: string,
    provider: string,
    /** The option that reads it, e.g. `api_key`. */
    readonly option: string,
  ) {
    super(
      `Client "${clientName}" reads env.${variable} (option ${option}), but ${variable} is not set. ` +
        `Set ${variable} in the environment, or pass it with the call option env: { ${variable}: "…" }.`,
      clientName,
      provider,
    );
    this.name = "BamlMissingEnvVarError";
    markError(this, "BamlMissingEnvVarError");
  }
  static override isInstance(value: unknown): value is BamlMissingEnvVarError {
    return hasErrorMark(value, "BamlMissingEnvVarError");
  }
}

/** A client's options are invalid (wrong type, missing `base_url`, unknown provider). */
export class BamlClientOptionsError extends BamlClientError {
  override readonly code: string = "INVALID_CLIENT_OPTIONS";
  constructor(
    message: string,
    clientName: string,
    provider: string,
    /** The offending option, when one is to blame. */
    readonly option: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, clientName, provider, options);
    this.name = "BamlClientOptionsError";
    markError(this, "BamlClientOptionsError");
  }
  static override isInstance(value: unknown): value is BamlClientOptionsError {
    return hasErrorMark(value, "BamlClientOptionsError");
  }
}

/** The model stopped for a reason the client's `finish_reason_allow_list` / `deny_list` rejects. */
export class BamlClientFinishReasonError extends BamlClientError {
  override readonly code: string = "FINISH_REASON";
  /** Sapling addition: the answer was cut (token limit, or it ended inside a value). */
  readonly truncated: boolean;
  /** Sapling addition: paths of the fields the answer did not finish (`$.name`). */
  readonly incompleteFields: string[];
  /**
   * Sapling addition: the answer parsed as far as it goes (what `finish_reason_deny_list` refused to return);
   * `undefined` when the text held nothing of the return type.
   */
  readonly partialValue?: unknown;
  // biome-ignore lint/complexity/useMaxParams: a public constructor, positional as BAML's error classes are.
  constructor(
    message: string,
    clientName: string,
    provider: string,
    readonly finishReason: string | undefined,
    readonly prompt: string,
    readonly rawOutput: string,
    answer: { truncated?: boolean; incompleteFields?: readonly string[]; partialValue?: unknown } = {},
  ) {
    super(message, clientName, provider);
    this.truncated = answer.truncated ?? false;
    this.incompleteFields = [...(answer.incompleteFields ?? [])];
    this.partialValue = answer.partialValue;
    this.name = "BamlClientFinishReasonError";
    markError(this, "BamlClientFinishReasonError");
  }
  static override isInstance(value: unknown): value is BamlClientFinishReasonError {
    return hasErrorMark(value, "BamlClientFinishReasonError");
  }
  /** BAML's name for `rawOutput`. */
  get raw_output(): string {
    return this.rawOutput;
  }
  /** BAML's name for `finishReason`. */
  get finish_reason(): string | undefined {
    return this.finishReason;
  }
}

/** The call was cancelled through its `AbortSignal`. */
export class BamlAbortError extends BamlError {
  override readonly code: string = "ABORTED";
  constructor(
    message: string,
    /** The signal's reason, when one was given. */
    readonly reason?: unknown,
  ) {
    super(message, { cause: reason });
    this.name = "BamlAbortError";
    markError(this, "BamlAbortError");
  }
  static override isInstance(value: unknown): value is BamlAbortError {
    return hasErrorMark(value, "BamlAbortError");
  }
}

/** The model answered, but its text does not hold a value of the return type. */
export class BamlValidationError extends BamlError {
  override readonly code: string = "VALIDATION";
  constructor(
    message: string,
    /** The rendered prompt, one `role: text` block per message. */
    readonly prompt: string,
    /** The model's raw answer. */
    readonly rawOutput: string,
    /** The parser's own error (a `SapParseError`: path, expected, found). */
    readonly detail: unknown,
  ) {
    super(message, { cause: detail });
    this.name = "BamlValidationError";
    markError(this, "BamlValidationError");
  }
  static override isInstance(value: unknown): value is BamlValidationError {
    return hasErrorMark(value, "BamlValidationError");
  }
  /** BAML's name for `rawOutput`. */
  get raw_output(): string {
    return this.rawOutput;
  }
}

/** One failed attempt of a call: which client, and why. */
export interface FailedAttempt {
  clientName: string;
  provider: string;
  error: BamlError;
}

/** Every attempt of a retry/fallback chain failed; `attempts` lists them in order. */
export class BamlAllClientsFailedError extends BamlClientError {
  override readonly code: string = "ALL_CLIENTS_FAILED";
  constructor(readonly attempts: FailedAttempt[]) {
    const last = attempts.at(-1);
    const lines = attempts.map(
      (attempt, index) =>
        `  ${index + 1}. ${attempt.clientName} (${attempt.provider}): ${attempt.error.message}`,
    );
    super(
      `Every client failed (${attempts.length} attempts):\n${lines.join("\n")}`,
      last?.clientName ?? "",
      last?.provider ?? "",
      { cause: last?.error },
    );
    this.name = "BamlAllClientsFailedError";
    markError(this, "BamlAllClientsFailedError");
  }
  static override isInstance(value: unknown): value is BamlAllClientsFailedError {
    return hasErrorMark(value, "BamlAllClientsFailedError");
  }
}
