/**
 * Keeps credentials out of everything a call reports (Collector logs, error messages, HTTP error bodies).
 * Two layers: headers and query parameters that carry credentials by name are masked, and every secret
 * value known for the attempt (resolved options whose names look like credentials) is replaced wherever it
 * appears — so a key echoed in a provider's error body or in a URL is masked too.
 */

import { isSecretHeaderName, redactedText } from "../llm/index.js";

/** The one marker of the package (the llm room's): what every masked credential reads as. */
export const REDACTED = redactedText;

const secretName = /(api[-_]?key|authorization|token|secret|password|credential|access[-_]?key|session)/i;

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
      if (secretName.test(name) && value.length >= 4 && (insideCredential || !isKeyFilePath(name, value))) {
        secrets.add(value);
      }
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, name, insideCredential);
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        // Inside a credential (a service-account key object) everything is secret but the fields that
        // only identify it: those show up in URLs and messages (the project in a Vertex URL), where
        // masking them would hide where a call went and help no one.
        if (!secretName.test(name)) visit(item, key);
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

const credentialHint = /Bearer|key=|access_token=/i;

/** `text` with every secret replaced, and `Bearer …` / `key=…` credentials masked even if unknown. */
export function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (result.includes(secret)) result = result.split(secret).join(REDACTED);
  // Most text (every SSE event of a stream passes here) holds no credential: skip the patterns then.
  if (!credentialHint.test(result)) return result;
  return result
    .replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g, `$1${REDACTED}`)
    .replace(/([?&](?:key|api[-_]?key|access_token)=)[^&#\s"']+/gi, `$1${REDACTED}`);
}

/**
 * Logged headers: credential-named entries masked by the llm room's header rule (the one `redactHeaders`
 * and `redactRequest` apply), and the attempt's known secrets removed from the others.
 */
export function redactLoggedHeaders(
  headers: Record<string, string>,
  secrets: readonly string[],
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    result[name] = isSecretHeaderName(name) ? REDACTED : redactText(value, secrets);
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
        secretName.test(key) && typeof item === "string" ? REDACTED : redactValue(item, secrets);
    }
    return result;
  }
  return value;
}
