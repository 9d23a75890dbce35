import { LlmError, redactText } from "../llm/index.js";
import {
  LlmAbortError,
  LlmHttpError,
  LlmMediaError,
  LlmOptionsError,
  LlmTimeoutError,
} from "../provider-helpers/index.js";
import { clientPrefix } from "./client-prefix.js";
import {
  BamlAbortError,
  BamlClientError,
  BamlClientHttpError,
  BamlClientOptionsError,
  BamlError,
  BamlMediaUrlError,
  BamlTimeoutError,
} from "./errors.js";

/**
 * Turns a failure of one model call (an `llm` room error, or anything else thrown while calling) into the
 * BAML-named error the application sees, with secrets removed from the message and body.
 */
export function mapLlmError(
  error: unknown,
  clientName: string,
  provider: string,
  secrets: readonly string[],
): BamlError {
  if (BamlError.isInstance(error)) return error;
  const clean = (text: string): string => redactText(text, secrets);
  const where = clientPrefix(clientName, provider);
  if (LlmAbortError.isInstance(error)) {
    return new BamlAbortError(`${where}the call was aborted through its AbortSignal.`, error.reason);
  }
  if (LlmMediaError.isInstance(error)) {
    // The caller's URL failed, not this client: the message does not start with the client's name.
    return new BamlMediaUrlError(clean(error.message), error.reason, error.host);
  }
  if (LlmHttpError.isInstance(error)) {
    return new BamlClientHttpError(
      clean(where + error.message),
      clientName,
      provider,
      error.status,
      clean(error.body),
      error.retryAfterMs,
    );
  }
  if (LlmTimeoutError.isInstance(error)) {
    return new BamlTimeoutError(clean(where + error.message), clientName, provider, error.timeoutMs);
  }
  if (LlmOptionsError.isInstance(error)) {
    return new BamlClientOptionsError(clean(where + error.message), clientName, provider, error.option);
  }
  if (LlmError.isInstance(error)) {
    return new BamlClientError(clean(where + error.message), clientName, provider);
  }
  if (error instanceof Error && error.name === "AbortError") {
    return new BamlAbortError(`${where}the call was aborted.`, error);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new BamlClientError(clean(`${where}${message}`), clientName, provider);
}
