/**
 * Google's OAuth token endpoint as the mock server plays it (`POST /token`): the JWT bearer grant of a
 * service account. It checks what Google checks (form fields, an RS256 JWT whose `aud` is this endpoint,
 * `iss`, `scope`, `iat`/`exp` within an hour, and the signature when the test gives the public key) and
 * answers Google's way: `{ access_token, expires_in, token_type }`, or HTTP 400 `{ error, error_description }`.
 * Tokens it issued are what the mock's Vertex AI paths accept as `authorization: Bearer …`.
 */

export interface MockTokenEndpointOptions {
  /** Public keys whose signatures are accepted; without any, signatures are not checked. */
  publicKeys?: readonly CryptoKey[];
  /** `expires_in` of issued tokens (default 3600). */
  expiresInSeconds?: number;
}

/** One token request the endpoint received. */
export interface RecordedTokenRequest {
  grantType: string | undefined;
  /** The JWT's decoded header and claims (empty when the assertion could not be decoded). */
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  /** The access token issued, or the OAuth error sent. */
  accessToken?: string;
  error?: string;
}

interface TokenAnswer {
  status: number;
  body: unknown;
}

const jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** Vertex AI's answer to a request without valid credentials. */
export const vertexUnauthenticatedBody = {
  error: {
    code: 401,
    message:
      "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
    status: "UNAUTHENTICATED",
  },
};

/** Whether a path is a Vertex AI publisher-model path (`/v1/projects/…/publishers/{google|anthropic}/models/m:…`). */
export function isVertexPath(path: string): boolean {
  return /^\/v1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/[^/]+\/models\/[^/:]+:/.test(path);
}

export class MockGoogleTokenEndpoint {
  readonly requests: RecordedTokenRequest[] = [];
  readonly #issued = new Map<string, number>();
  readonly #failures: { status: number; error: string; description: string }[] = [];
  readonly #publicKeys: CryptoKey[];

  constructor(
    readonly tokenUri: string,
    private readonly options: MockTokenEndpointOptions = {},
  ) {
    this.#publicKeys = [...(options.publicKeys ?? [])];
  }

  /** Accepts signatures made with this key from now on (and checks every signature from then on). */
  trust(publicKey: CryptoKey): void {
    this.#publicKeys.push(publicKey);
  }

  /** Makes the next token request fail with this OAuth error (e.g. 400 `invalid_grant`, 503). */
  failNext(status: number, error: string, description: string): void {
    this.#failures.push({ status, error, description });
  }

  /** Whether `authorization` carries a token this endpoint issued that has not expired. */
  accepts(authorization: string | undefined): boolean {
    const token = /^Bearer (.+)$/.exec(authorization ?? "")?.[1];
    const expiresAt = token === undefined ? undefined : this.#issued.get(token);
    return expiresAt !== undefined && expiresAt > Date.now();
  }

  /** A Vertex AI request is let in with a token issued here or an API key (express mode). */
  authorizes(headers: Readonly<Record<string, string>>, query: Readonly<Record<string, string>>): boolean {
    return (
      this.accepts(headers.authorization) ||
      query.key !== undefined ||
      headers["x-goog-api-key"] !== undefined
    );
  }

  async handle(rawBody: string, contentType: string | undefined): Promise<TokenAnswer> {
    const form = new URLSearchParams(rawBody);
    const recorded: RecordedTokenRequest = {
      grantType: form.get("grant_type") ?? undefined,
      header: {},
      claims: {},
    };
    this.requests.push(recorded);
    const refuse = (error: string, description: string, status = 400): TokenAnswer => {
      recorded.error = error;
      return { status, body: { error, error_description: description } };
    };
    const failure = this.#failures.shift();
    if (failure !== undefined) return refuse(failure.error, failure.description, failure.status);
    if (!(contentType ?? "").startsWith("application/x-www-form-urlencoded")) {
      return refuse("invalid_request", `expected a form-encoded body, got content-type ${contentType}`);
    }
    if (recorded.grantType !== jwtBearerGrant) {
      return refuse("unsupported_grant_type", `Invalid grant_type: ${recorded.grantType ?? ""}`);
    }
    const parts = (form.get("assertion") ?? "").split(".");
    const [encodedHeader, encodedClaims, encodedSignature] = parts;
    if (parts.length !== 3 || !encodedHeader || !encodedClaims || !encodedSignature) {
      return refuse(
        "invalid_grant",
        "Invalid JWT: Token must be a short-lived token and in a reasonable timeframe",
      );
    }
    try {
      recorded.header = JSON.parse(new TextDecoder().decode(fromBase64Url(encodedHeader)));
      recorded.claims = JSON.parse(new TextDecoder().decode(fromBase64Url(encodedClaims)));
    } catch {
      return refuse("invalid_grant", "Invalid JWT: the header or claims are not base64url JSON");
    }
    const problem = this.#claimProblem(recorded);
    if (problem !== undefined) return refuse("invalid_grant", problem);
    const publicKeys = this.#publicKeys;
    if (publicKeys.length > 0) {
      const signed = new TextEncoder().encode(`${encodedHeader}.${encodedClaims}`);
      const signature = fromBase64Url(encodedSignature);
      let valid = false;
      for (const key of publicKeys) {
        if (await crypto.subtle.verify("RSASSA-PKCS1-v1_5", key, signature, signed)) valid = true;
      }
      if (!valid) return refuse("invalid_grant", "Invalid JWT Signature.");
    }
    const expiresIn = this.options.expiresInSeconds ?? 3600;
    const accessToken = `ya29.mock-${this.requests.length}-${Math.random().toString(36).slice(2, 10)}`;
    this.#issued.set(accessToken, Date.now() + expiresIn * 1000);
    recorded.accessToken = accessToken;
    return { status: 200, body: { access_token: accessToken, expires_in: expiresIn, token_type: "Bearer" } };
  }

  #claimProblem({ header, claims }: RecordedTokenRequest): string | undefined {
    if (header.alg !== "RS256") return `Invalid JWT: alg must be RS256, got ${String(header.alg)}`;
    if (typeof claims.iss !== "string" || claims.iss === "") return "Invalid JWT: no iss claim";
    if (typeof claims.scope !== "string" || claims.scope === "") return "Invalid JWT: no scope claim";
    if (claims.aud !== this.tokenUri)
      return `Invalid JWT audience: ${String(claims.aud)}, expected ${this.tokenUri}`;
    const issuedAt = claims.iat;
    const expiresAt = claims.exp;
    const now = Date.now() / 1000;
    if (typeof issuedAt !== "number" || typeof expiresAt !== "number")
      return "Invalid JWT: iat and exp are required";
    if (expiresAt <= issuedAt || expiresAt - issuedAt > 3600 || issuedAt > now + 300 || expiresAt < now) {
      return "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.";
    }
    return undefined;
  }
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
}
