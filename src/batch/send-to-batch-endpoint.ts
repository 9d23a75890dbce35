import { BamlAbortError, BamlClientError, BamlClientHttpError } from "../runtime/index.js";
import { describeNetworkError } from "../util/index.js";

/** Who a provider batch talks for: named in its errors as a call's errors name the client. */
export interface BatchEndpoint {
  fetch: typeof globalThis.fetch;
  /** The function's client (or `callOptions.client`). */
  clientName: string;
  provider: string;
  /** Credential values (the request's header values) that must not appear in an error's text. */
  secrets: readonly string[];
}

/**
 * One request to a provider's batch endpoint. A failure is the error a call would raise for the same
 * fault: `BamlClientHttpError` for an error status (its status and the provider's explanation, a 401 for
 * a missing or wrong key), `BamlClientError` for a connection that failed (refused, DNS, TLS),
 * `BamlAbortError` for the caller's abort; never a bare `TypeError: fetch failed`.
 */
export async function sendToBatchEndpoint(
  endpoint: BatchEndpoint,
  url: string,
  init: RequestInit,
  what: string,
): Promise<Response> {
  const where = `Client "${endpoint.clientName}" (${endpoint.provider}): `;
  let response: Response;
  try {
    response = await endpoint.fetch(url, init);
  } catch (error) {
    if (init.signal?.aborted) throw init.signal.reason ?? error;
    if (error instanceof Error && error.name === "AbortError")
      throw new BamlAbortError(`${where}${what} was aborted.`, error);
    throw new BamlClientError(
      redact(
        `${where}${what} failed: the connection to ${url} failed: ${describeNetworkError(error)}. Check base_url and that the server is reachable.`,
        endpoint.secrets,
      ),
      endpoint.clientName,
      endpoint.provider,
      { cause: error },
    );
  }
  if (!response.ok) {
    const body = redact(await response.text().catch(() => ""), endpoint.secrets);
    const hint =
      response.status === 401 || response.status === 403
        ? " Check the client's API key (for openai, OPENAI_API_KEY; for anthropic, ANTHROPIC_API_KEY) and that it may use the batch API."
        : "";
    throw new BamlClientHttpError(
      redact(`${where}${what} failed: HTTP ${response.status} from ${url}: ${body.slice(0, 500)}${hint}`, [
        ...endpoint.secrets,
      ]),
      endpoint.clientName,
      endpoint.provider,
      response.status,
      body,
    );
  }
  return response;
}

function redact(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) if (secret.length >= 8) clean = clean.split(secret).join("[redacted]");
  return clean;
}
