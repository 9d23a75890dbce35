/**
 * The one redaction module of the package: keeping credentials out of everything printable — request dumps
 * (`b.request`), Collector logs, log lines, trace spans and error messages. One marker (`[REDACTED]`), one
 * rule for names that carry a credential (headers, options, body fields), one for URL query parameters;
 * free text loses every secret value known for the call, and `Bearer …` / `key=…` credentials and URL
 * user info (`https://user:password@host`) even when unknown. Which values are secret is one rule
 * (`collectSecrets`): options named like credentials, and every option read from `env.NAME` that does not
 * say where or which (`base_url`, `model`, `region`, …), whatever its name — a header called
 * `Ocp-Apim-Subscription-Key` or `x-key` is as secret as `api_key`. `sapling-llm/runtime` re-exports the
 * printing functions.
 */
import type { ProviderRequest } from "./language-model.js";

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

/** `scheme://user:password@` at the start of a URL (`userInfoInText` finds it anywhere). */
const userInfoAtStart = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/i;
const userInfoInText = /\b([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s"'<>]*@/gi;

/** Whether `url` carries a user name or password (`https://user:password@host`). */
export function hasUserInfo(url: string): boolean {
  return userInfoAtStart.test(url.trim());
}

/**
 * `url` with its user info (`user:password@`) and secret query parameters (`key`, `api_key`, `token`, …)
 * replaced by `[REDACTED]`.
 */
export function redactUrl(text: string): string {
  const url = text.replace(userInfoAtStart, `$1${redactedText}@`);
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

/** Where a request carries the secret values of the call that built it (never enumerable or serialized). */
const requestSecrets = Symbol.for("sapling.llm.requestSecrets");

/**
 * Marks `request` with the secret values of the call that built it (`collectSecrets`), so that
 * `redactRequest` can mask them wherever they are, whatever the header is called. Returns `request`.
 */
export function withRequestSecrets<Request extends object>(
  request: Request,
  secrets: readonly string[],
): Request {
  Object.defineProperty(request, requestSecrets, { value: [...secrets], enumerable: false });
  return request;
}

/**
 * The printable form of a request (`b.request` returns the real key, by design, as BAML does): same body,
 * redacted headers and URL. Headers are masked by name, and every secret value of the call that built the
 * request (`withRequestSecrets`) is removed from the URL, the headers and the body's strings.
 */
export function redactRequest<Request extends ProviderRequest>(request: Request): Request {
  const secrets = ((request as { [requestSecrets]?: string[] })[requestSecrets] ?? []) as string[];
  return {
    ...request,
    url: redactText(redactUrl(request.url), secrets),
    headers: redactLoggedHeaders(request.headers, secrets),
    ...(secrets.length === 0 ? {} : { body: replaceSecretValues(request.body, secrets) }),
  };
}

/** A deep copy with the given secret values removed from every string (names and structure kept). */
function replaceSecretValues(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return redactSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((item) => replaceSecretValues(item, secrets));
  if (value === null || typeof value !== "object") return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) result[key] = replaceSecretValues(item, secrets);
  return result;
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

/** A client option's value that was read from `env.NAME`: the option's path (`headers.x-key`) and value. */
export interface EnvOptionValue {
  option: string;
  value: string;
}

/**
 * Options that say where a call goes or which model answers, never a credential: read from `env`, they
 * stay visible (masking `gpt-4o` or `us-east-1` everywhere would hide what happened and protect nothing).
 * A URL's user info is still a secret.
 */
const locatingOptions = new Set([
  "base_url",
  "endpoint_url",
  "model",
  "model_id",
  "region",
  "location",
  "project_id",
  "api_version",
  "anthropic_version",
  "resource_name",
  "deployment_id",
  "default_role",
]);

/**
 * The values among resolved client options that must never be shown: options named like credentials
 * (searched recursively), every value read from `env.NAME` (`fromEnv`) except the locating options, and
 * the user info of any URL.
 */
export function collectSecrets(
  options: Record<string, unknown>,
  fromEnv: readonly EnvOptionValue[] = [],
): string[] {
  const secrets = new Set<string>();
  for (const { option, value } of fromEnv) {
    const topLevel = option.split(/[.[]/)[0] ?? option;
    if (locatingOptions.has(topLevel) || value.length < 4 || isKeyFilePath(topLevel, value)) continue;
    secrets.add(value);
  }
  // `insideCredential`: a field of a credential object (whose strings are all secret, paths or not).
  const visit = (value: unknown, name: string, insideCredential = false): void => {
    if (typeof value === "string") {
      for (const part of userInfoParts(value)) secrets.add(part);
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

/** The user info of a URL (`user:password`, and the password alone), as secrets of 4 characters or more. */
function userInfoParts(value: string): string[] {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@\s]*)@/i.exec(value.trim());
  if (!match?.[1]) return [];
  const userInfo = match[1];
  const password = userInfo.slice(userInfo.indexOf(":") + 1);
  return [userInfo, ...(userInfo.includes(":") ? [password] : [])].filter((part) => part.length >= 4);
}

/**
 * `credentials "keys/sa.json"` (vertex-ai) names a key file: the secret is the file's content, never in the
 * options, while the path is what an error about a missing file must show.
 */
function isKeyFilePath(name: string, value: string): boolean {
  return name === "credentials" && !value.trimStart().startsWith("{");
}

const credentialHint = /Bearer|(?:key|token|sig|signature|secret|password)=|:\/\/[^/?#@\s]*@/i;

/**
 * `text` with every secret replaced, and `Bearer …` / `key=…` credentials and URL user info masked even
 * if unknown.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (result.includes(secret)) result = result.split(secret).join(redactedText);
  // Most text (every SSE event of a stream passes here) holds no credential: skip the patterns then.
  if (!credentialHint.test(result)) return result;
  return result
    .replace(userInfoInText, `$1${redactedText}@`)
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
