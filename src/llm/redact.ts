/**
 * The one redaction module of the package: keeping credentials out of everything printable — request dumps
 * (`b.request`), Collector logs, log lines, trace spans and error messages. One marker (`[REDACTED]`), one
 * rule for names that carry a credential (headers, options, body fields), one for URL query parameters;
 * free text loses every secret value known for the call, and `Bearer …` / `key=…` credentials even when
 * unknown. `sapling-llm/runtime` re-exports the printing functions.
 */
import type { HttpRequest } from "./language-model.js";

export const redactedText = "[REDACTED]";

const secretName =
  /authorization|^(cookie|set-cookie)$|api[-_]?key|token|secret|password|credential|access[-_]?key|session/i;

/** Whether a header, a client option or a body field carries a credential by its name. */
export function isSecretHeaderName(name: string): boolean {
  return secretName.test(name);
}
/** Query parameters that carry a credential, for whole URLs (`redactUrl`) and URLs inside text alike. */
const secretQueryNames = "key|api[-_]?key|access[-_]?token|token|sig|signature|secret|password";
const secretQueryName = new RegExp(`^(${secretQueryNames})$`, "i");
const secretQueryInText = new RegExp(`([?&](?:${secretQueryNames})=)[^&#\\s"']+`, "gi");

/** A copy of `headers` with credential-bearing values (by header name) replaced by `[REDACTED]`. */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    result[name] = isSecretHeaderName(name) ? redactedText : value;
  }
  return result;
}

/** `url` with secret query parameters (`key`, `api_key`, `token`, …) replaced by `[REDACTED]`. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf("?");
  if (queryStart < 0) return url;
  const hashStart = url.indexOf("#", queryStart);
  const query = url.slice(queryStart + 1, hashStart < 0 ? undefined : hashStart);
  const redactedQuery = query
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const name = decodeURIComponent(equals < 0 ? pair : pair.slice(0, equals));
      return equals >= 0 && secretQueryName.test(name) ? `${pair.slice(0, equals)}=${redactedText}` : pair;
    })
    .join("&");
  return `${url.slice(0, queryStart)}?${redactedQuery}${hashStart < 0 ? "" : url.slice(hashStart)}`;
}

/**
 * The printable form of a request (`b.request` returns the real key, by design, as BAML does): same body,
 * redacted headers and URL.
 */
export function redactRequest<Request extends HttpRequest>(request: Request): Request {
  return { ...request, url: redactUrl(request.url), headers: redactHeaders(request.headers) };
}

/** `text` with every occurrence of the given secret values replaced (values shorter than 4 are ignored). */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret === undefined || secret.length < 4) continue;
    result = result.split(secret).join(redactedText);
  }
  return result;
}

// What a call reports (Collector logs, log lines, spans, HTTP error bodies): every secret value known for
// the attempt (resolved options whose names look like credentials) is replaced wherever it appears, so a
// key echoed in a provider's error body or in a URL is masked too.

/** Fields of a credential object that identify it rather than prove it (Google service-account keys). */
const identifyingField =
  /^(type|project_id|client_email|client_id|auth_uri|token_uri|auth_provider_x509_cert_url|client_x509_cert_url|universe_domain)$/;

/** The values among resolved client options that must never be shown (searched recursively). */
export function collectSecrets(options: Record<string, unknown>): string[] {
  const secrets = new Set<string>();
  // `insideCredential`: a field of a credential object (whose strings are all secret, paths or not).
  const visit = (value: unknown, name: string, insideCredential = false): void => {
    if (typeof value === "string") {
      // Very short values (e.g. "x") would mask unrelated text; no real credential is that short.
      if (
        isSecretHeaderName(name) &&
        value.length >= 4 &&
        (insideCredential || !isKeyFilePath(name, value))
      ) {
        secrets.add(value);
      }
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, name, insideCredential);
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        // Inside a credential (a service-account key object) everything is secret but the fields that
        // only identify it: those show up in URLs and messages (the project in a Vertex URL), where
        // masking them would hide where a call went and help no one.
        if (!isSecretHeaderName(name)) visit(item, key);
        else if (!identifyingField.test(key)) visit(item, name, true);
      }
    }
  };
  visit(options, "");
  return [...secrets].sort((left, right) => right.length - left.length);
}

/**
 * `credentials "keys/sa.json"` (vertex-ai) names a key file: the secret is the file's content, never in the
 * options, while the path is what an error about a missing file must show.
 */
function isKeyFilePath(name: string, value: string): boolean {
  return name === "credentials" && !value.trimStart().startsWith("{");
}

const credentialHint = /Bearer|(?:key|token|sig|signature|secret|password)=/i;

/** `text` with every secret replaced, and `Bearer …` / `key=…` credentials masked even if unknown. */
export function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (result.includes(secret)) result = result.split(secret).join(redactedText);
  // Most text (every SSE event of a stream passes here) holds no credential: skip the patterns then.
  if (!credentialHint.test(result)) return result;
  return result
    .replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g, `$1${redactedText}`)
    .replace(secretQueryInText, `$1${redactedText}`);
}

/**
 * Logged headers: credential-named entries masked by the rule `redactHeaders` and `redactRequest` apply,
 * and the attempt's known secrets removed from the others.
 */
export function redactLoggedHeaders(
  headers: Record<string, string>,
  secrets: readonly string[],
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    result[name] = isSecretHeaderName(name) ? redactedText : redactText(value, secrets);
  }
  return result;
}

/** A deep copy of JSON-like data with secrets removed from every string (keys included). */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets));
  if (value !== null && typeof value === "object") {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      result[redactText(key, secrets)] =
        isSecretHeaderName(key) && typeof item === "string" ? redactedText : redactValue(item, secrets);
    }
    return result;
  }
  return value;
}
