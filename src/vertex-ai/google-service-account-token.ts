/**
 * Google OAuth access tokens for a service-account key, by the JWT bearer flow (RFC 7523): a JWT with claims
 * iss (the account's email), scope, aud (the key's `token_uri`), iat and exp, signed RS256 with the key's
 * private key, is POSTed form-encoded to `token_uri`, which answers `{ access_token, expires_in }`. Signing
 * uses the web-standard `crypto.subtle`, so this runs in browsers, Node and workers alike.
 *
 * Tokens are cached per key until shortly before they expire, and concurrent callers share one token
 * request. The private key never appears in an error message.
 */
import { type LlmErrorContext, redactSecrets } from "../llm/index.js";
import {
  isRecord,
  LlmConnectionError,
  LlmHttpError,
  LlmMalformedResponseError,
  LlmOptionsError,
  optionalNumber,
} from "../provider-helpers/index.js";
import { hasErrorMark, markError } from "../util/index.js";

/** Google's token endpoint, used when a key file names none. */
export const googleTokenUri = "https://oauth2.googleapis.com/token";
/** The scope Vertex AI needs. */
export const cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform";

/** A token is refreshed this long before Google says it expires, so a request never carries a stale one. */
const refreshMarginMs = 60_000;
/** A token endpoint that does not answer in this time fails the call instead of hanging it. */
const tokenRequestTimeoutMs = 30_000;
const defaultLifetimeSeconds = 3600;

/** The fields of a service-account key file that the flow uses. */
export interface ServiceAccountKey {
  clientEmail: string;
  /** PEM, PKCS#8 (`-----BEGIN PRIVATE KEY-----`), as in Google's JSON key files. */
  privateKey: string;
  privateKeyId: string | undefined;
  tokenUri: string;
  projectId: string | undefined;
  /** Where the key came from (`credentials`, `GOOGLE_APPLICATION_CREDENTIALS_CONTENT`, …), for messages. */
  source: string;
}

/**
 * Reads a parsed key file. Throws `LlmOptionsError` naming `source` when a field is missing or the key is
 * not a service-account key (an `authorized_user` file from `gcloud auth application-default login` has no
 * private key). `origin` (e.g. `the key file "keys/sa.json"`) starts each message when the key came from a
 * file, so the message names the file as well as the option.
 */
export function readServiceAccountKey(
  value: unknown,
  source: string,
  provider: string,
  origin?: string,
): ServiceAccountKey {
  const fail = (detail: string): never => {
    throw new LlmOptionsError(source, origin === undefined ? detail : `${origin}: ${detail}`, { provider });
  };
  if (!isRecord(value)) return fail("expected a service-account key (a JSON object).");
  if (value.type !== undefined && value.type !== "service_account") {
    fail(
      `is a "${String(value.type)}" credential; only service-account keys ("type": "service_account") can be used. Create a key for a service account and pass its JSON.`,
    );
  }
  const text = (name: string): string | undefined => {
    const field = value[name];
    if (field === undefined || field === null) return undefined;
    if (typeof field !== "string" || field === "") fail(`\`${name}\` must be a non-empty string.`);
    return field as string;
  };
  const clientEmail = text("client_email") ?? fail("the key has no `client_email`.");
  const privateKey = text("private_key") ?? fail("the key has no `private_key`.");
  return {
    clientEmail,
    privateKey,
    privateKeyId: text("private_key_id"),
    tokenUri: text("token_uri") ?? googleTokenUri,
    projectId: text("project_id"),
    source,
  };
}

interface CachedToken {
  token: string;
  /** Milliseconds since the epoch after which the token is not used again. */
  refreshAt: number;
}

/** What a token request needs besides the key. */
export interface TokenRequestContext {
  fetch: typeof fetch;
  /** The provider string, for error messages. */
  provider: string;
  scope?: string;
}

/** Access tokens by key, each reused until shortly before it expires; one request in flight per key. */
export class ServiceAccountTokenCache {
  readonly #tokens = new Map<string, CachedToken>();
  readonly #pending = new Map<string, Promise<CachedToken>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A valid access token for `key`, from the cache or from the key's token endpoint. */
  async accessToken(key: ServiceAccountKey, context: TokenRequestContext): Promise<string> {
    const scope = context.scope ?? cloudPlatformScope;
    const cacheKey = [key.tokenUri, key.clientEmail, scope, key.privateKeyId ?? "", key.privateKey].join(
      "\n",
    );
    const cached = this.#tokens.get(cacheKey);
    if (cached !== undefined && cached.refreshAt > this.now()) return cached.token;
    let pending = this.#pending.get(cacheKey);
    if (pending === undefined) {
      pending = requestAccessToken(key, scope, context, this.now).finally(() =>
        this.#pending.delete(cacheKey),
      );
      this.#pending.set(cacheKey, pending);
    }
    const fresh = await pending;
    this.#tokens.set(cacheKey, fresh);
    return fresh.token;
  }

  /** Forgets every token (e.g. after rotating keys). */
  clear(): void {
    this.#tokens.clear();
  }
}

/** The process-wide cache the `vertex-ai` provider uses: a model is created per call, its tokens outlive it. */
export const sharedServiceAccountTokenCache = new ServiceAccountTokenCache();

/** The signed JWT the token endpoint exchanges for an access token. */
export async function createServiceAccountAssertion(
  key: ServiceAccountKey,
  scope: string,
  nowMs: number,
  provider: string,
): Promise<string> {
  const issuedAt = Math.floor(nowMs / 1000);
  const header: Record<string, string> = { alg: "RS256", typ: "JWT" };
  if (key.privateKeyId !== undefined) header.kid = key.privateKeyId;
  const claims = {
    iss: key.clientEmail,
    scope,
    aud: key.tokenUri,
    iat: issuedAt,
    exp: issuedAt + defaultLifetimeSeconds,
  };
  const signingInput = `${base64Url(utf8(JSON.stringify(header)))}.${base64Url(utf8(JSON.stringify(claims)))}`;
  const signingKey = await importPrivateKey(key, provider);
  const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", signingKey, utf8(signingInput));
  return `${signingInput}.${base64Url(new Uint8Array(signature))}`;
}

async function importPrivateKey(key: ServiceAccountKey, provider: string): Promise<CryptoKey> {
  const invalid = (detail: string) =>
    new LlmOptionsError(
      key.source,
      `the \`private_key\` of service account ${key.clientEmail} ${detail} Pass the key file's JSON exactly as Google issued it.`,
      { provider },
    );
  if (/-----BEGIN RSA PRIVATE KEY-----/.test(key.privateKey)) {
    throw invalid("is a PKCS#1 key; a PKCS#8 key (-----BEGIN PRIVATE KEY-----) is needed.");
  }
  // Keys pasted through environment variables often carry literal `\n`; base64 has no backslash.
  const body = key.privateKey
    .replace(/-----(BEGIN|END) PRIVATE KEY-----/g, "")
    .replace(/\\n/g, "")
    .replace(/\s+/g, "");
  let der: Uint8Array<ArrayBuffer>;
  try {
    der = Uint8Array.from(atob(body), (character) => character.charCodeAt(0));
  } catch {
    throw invalid("is not PEM (base64 between -----BEGIN PRIVATE KEY----- lines).");
  }
  try {
    return await crypto.subtle.importKey(
      "pkcs8",
      der,
      { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
      false,
      ["sign"],
    );
  } catch {
    throw invalid("is not a valid RSA private key.");
  }
}

async function requestAccessToken(
  key: ServiceAccountKey,
  scope: string,
  context: TokenRequestContext,
  now: () => number,
): Promise<CachedToken> {
  const errorContext: LlmErrorContext = { provider: context.provider, url: key.tokenUri };
  const account = `service account ${key.clientEmail} (from ${key.source})`;
  const assertion = await createServiceAccountAssertion(key, scope, now(), context.provider);
  const startedAt = now();
  let response: Response;
  let text: string;
  try {
    // A URLSearchParams body is sent as application/x-www-form-urlencoded, as the flow requires.
    response = await context.fetch(key.tokenUri, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
      signal: AbortSignal.timeout(tokenRequestTimeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const detail =
      error instanceof Error && error.name === "TimeoutError"
        ? `no answer within ${tokenRequestTimeoutMs / 1000} s`
        : String(error instanceof Error ? error.message : error);
    throw new LlmConnectionError(`getting an access token for ${account} failed: ${detail}`, {
      ...errorContext,
      cause: error,
    });
  }
  const body = redactSecrets(text, [key.privateKey, assertion]);
  if (!response.ok) throw new ServiceAccountTokenError(response.status, body, account, errorContext);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LlmMalformedResponseError(
      `the token endpoint's answer for ${account} is not JSON`,
      body,
      errorContext,
    );
  }
  if (!isRecord(parsed) || typeof parsed.access_token !== "string" || parsed.access_token === "") {
    const fields = isRecord(parsed) ? Object.keys(parsed).join(", ") : typeof parsed;
    throw new LlmMalformedResponseError(
      `the token endpoint's answer for ${account} has no access_token`,
      `fields: ${fields}`,
      errorContext,
    );
  }
  const lifetimeMs = (optionalNumber(parsed.expires_in) ?? defaultLifetimeSeconds) * 1000;
  return { token: parsed.access_token, refreshAt: startedAt + Math.max(0, lifetimeMs - refreshMarginMs) };
}

/** The token endpoint refused the key (HTTP error); keeps `status` and `body` for retries and logs. */
export class ServiceAccountTokenError extends LlmHttpError {
  constructor(status: number, body: string, account: string, context: LlmErrorContext) {
    super(status, body, undefined, context);
    this.name = "ServiceAccountTokenError";
    this.message = `${context.provider} could not get an access token for ${account}: ${context.url} answered HTTP ${status}: ${asSentence(describeOAuthError(body))} ${
      status >= 500
        ? "Google's token endpoint failed; a retry_policy can recover."
        : "Check that the key still exists and is enabled, that the machine's clock is right, and that the account may use Vertex AI."
    }`;
    markError(this, "ServiceAccountTokenError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static override isInstance(value: unknown): value is ServiceAccountTokenError {
    return hasErrorMark(value, "ServiceAccountTokenError");
  }
}

/** `invalid_grant: Invalid JWT Signature.` from an OAuth error body, or the body itself (shortened). */
function describeOAuthError(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (isRecord(parsed) && typeof parsed.error === "string") {
      const description = typeof parsed.error_description === "string" ? `: ${parsed.error_description}` : "";
      return `${parsed.error}${description}`;
    }
  } catch {
    // Not JSON: show the text.
  }
  const flat = body.replace(/\s+/g, " ").trim();
  if (flat === "") return "(empty body)";
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

function asSentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text);
}

function base64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
