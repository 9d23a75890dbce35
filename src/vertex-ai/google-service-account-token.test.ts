import { beforeAll, describe, expect, it } from "vitest";
import {
  LlmConnectionError,
  LlmHttpError,
  LlmMalformedResponseError,
  LlmOptionsError,
} from "../provider-helpers/index.js";
import { createTestServiceAccount, type TestServiceAccount } from "../testing/index.js";
import {
  cloudPlatformScope,
  createServiceAccountAssertion,
  googleTokenUri,
  readServiceAccountKey,
  type ServiceAccountKey,
  ServiceAccountTokenCache,
  ServiceAccountTokenError,
} from "./google-service-account-token.js";

const tokenUri = "https://oauth.test/token";
let account: TestServiceAccount;
let key: ServiceAccountKey;

beforeAll(async () => {
  account = await createTestServiceAccount({ tokenUri, projectId: "proj-1" });
  key = readServiceAccountKey(account.keyFile, "credentials", "vertex-ai");
});

function decodePart(part: string | undefined): Record<string, unknown> {
  const base64 = (part ?? "").replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(atob(base64)) as Record<string, unknown>;
}

interface FakeCall {
  url: string;
  init: RequestInit | undefined;
}

/** A fetch answering token requests from a list (a function gives the body per call). */
function tokenFetch(answers: (() => Response)[]): { fetch: typeof fetch; calls: FakeCall[] } {
  const calls: FakeCall[] = [];
  const fetchFunction = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    calls.push({ url: String(input), init });
    const next = answers.shift();
    if (next === undefined) throw new Error("unexpected token request");
    return next();
  };
  return { fetch: fetchFunction as typeof fetch, calls };
}

const granted =
  (token: string, expiresIn = 3600) =>
  () =>
    Response.json({ access_token: token, expires_in: expiresIn, token_type: "Bearer" });

describe("readServiceAccountKey", () => {
  it("reads the key file's fields and defaults token_uri to Google's", () => {
    expect(key).toMatchObject({
      clientEmail: "sapling-test@proj-1.iam.gserviceaccount.com",
      privateKeyId: "test-key-1",
      projectId: "proj-1",
      tokenUri,
      source: "credentials",
    });
    const { token_uri: _unused, ...withoutUri } = account.keyFile;
    expect(readServiceAccountKey(withoutUri, "credentials", "vertex-ai").tokenUri).toBe(googleTokenUri);
  });

  it("names the option and the missing field", () => {
    const { private_key: _unused, ...withoutKey } = account.keyFile;
    expect(() => readServiceAccountKey(withoutKey, "credentials_content", "vertex-ai")).toThrow(
      /`credentials_content`: the key has no `private_key`/,
    );
  });

  it("refuses gcloud's authorized_user credentials with a way out", () => {
    const error = (() => {
      try {
        readServiceAccountKey({ type: "authorized_user", client_id: "x" }, "credentials", "vertex-ai");
      } catch (caught) {
        return caught;
      }
    })();
    expect(LlmOptionsError.isInstance(error)).toBe(true);
    expect(String(error)).toMatch(/"authorized_user" credential; only service-account keys/);
  });
});

describe("createServiceAccountAssertion", () => {
  it("signs an RS256 JWT with iss, scope, aud, iat and a one-hour exp that the public key verifies", async () => {
    const jwt = await createServiceAccountAssertion(key, cloudPlatformScope, 1_700_000_000_500, "vertex-ai");
    const [header, claims, signature] = jwt.split(".");
    expect(decodePart(header)).toEqual({ alg: "RS256", typ: "JWT", kid: "test-key-1" });
    expect(decodePart(claims)).toEqual({
      iss: key.clientEmail,
      scope: cloudPlatformScope,
      aud: tokenUri,
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    });
    const signatureBytes = Uint8Array.from(
      atob((signature ?? "").replace(/-/g, "+").replace(/_/g, "/")),
      (character) => character.charCodeAt(0),
    );
    const signed = new TextEncoder().encode(`${header}.${claims}`);
    expect(await crypto.subtle.verify("RSASSA-PKCS1-v1_5", account.publicKey, signatureBytes, signed)).toBe(
      true,
    );
    const tampered = new TextEncoder().encode(`${header}.${claims}x`);
    expect(await crypto.subtle.verify("RSASSA-PKCS1-v1_5", account.publicKey, signatureBytes, tampered)).toBe(
      false,
    );
  });

  it("accepts a key whose newlines arrived as literal \\n (pasted through an environment variable)", async () => {
    const escaped = { ...key, privateKey: key.privateKey.replace(/\n/g, "\\n") };
    await expect(createServiceAccountAssertion(escaped, cloudPlatformScope, 0, "vertex-ai")).resolves.toMatch(
      /^[\w-]+\.[\w-]+\.[\w-]+$/,
    );
  });

  it("explains a PKCS#1 or broken private key without showing it", async () => {
    const pkcs1 = {
      ...key,
      privateKey: "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
    };
    await expect(createServiceAccountAssertion(pkcs1, cloudPlatformScope, 0, "vertex-ai")).rejects.toThrow(
      /`credentials`: the `private_key` of service account sapling-test@.* is a PKCS#1 key/,
    );
    const broken = {
      ...key,
      privateKey: "-----BEGIN PRIVATE KEY-----\nAAAAc2VjcmV0aXNo\n-----END PRIVATE KEY-----",
    };
    const error = await createServiceAccountAssertion(broken, cloudPlatformScope, 0, "vertex-ai").catch(
      (caught: unknown) => caught,
    );
    expect(LlmOptionsError.isInstance(error)).toBe(true);
    expect(String(error)).toMatch(/is not a valid RSA private key/);
    expect(String(error)).not.toContain("AAAAc2VjcmV0aXNo");
  });
});

describe("ServiceAccountTokenCache", () => {
  it("posts the JWT bearer grant form-encoded to token_uri and returns the access token", async () => {
    const fake = tokenFetch([granted("ya29.first")]);
    const cache = new ServiceAccountTokenCache();
    expect(await cache.accessToken(key, { fetch: fake.fetch, provider: "vertex-ai" })).toBe("ya29.first");
    expect(fake.calls).toHaveLength(1);
    const call = fake.calls[0] as FakeCall;
    expect(call.url).toBe(tokenUri);
    expect(call.init?.method).toBe("POST");
    const form = call.init?.body as URLSearchParams;
    expect(form).toBeInstanceOf(URLSearchParams);
    expect(form.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    expect(decodePart(form.get("assertion")?.split(".")[1]).iss).toBe(key.clientEmail);
  });

  it("reuses a token until a minute before it expires, then fetches a new one", async () => {
    let now = 1_000_000;
    const fake = tokenFetch([granted("ya29.first", 3600), granted("ya29.second", 3600)]);
    const cache = new ServiceAccountTokenCache(() => now);
    const context = { fetch: fake.fetch, provider: "vertex-ai" };
    expect(await cache.accessToken(key, context)).toBe("ya29.first");
    now += 3_539_000;
    expect(await cache.accessToken(key, context)).toBe("ya29.first");
    now += 2_000;
    expect(await cache.accessToken(key, context)).toBe("ya29.second");
    expect(fake.calls).toHaveLength(2);
  });

  it("shares one token request between concurrent callers, and keeps tokens apart per key", async () => {
    const other = await createTestServiceAccount({
      tokenUri,
      clientEmail: "other@proj.iam.gserviceaccount.com",
    });
    const otherKey = readServiceAccountKey(other.keyFile, "credentials", "vertex-ai");
    const fake = tokenFetch([granted("ya29.shared"), granted("ya29.other")]);
    const cache = new ServiceAccountTokenCache();
    const context = { fetch: fake.fetch, provider: "vertex-ai" };
    const tokens = await Promise.all([
      cache.accessToken(key, context),
      cache.accessToken(key, context),
      cache.accessToken(key, context),
    ]);
    expect(tokens).toEqual(["ya29.shared", "ya29.shared", "ya29.shared"]);
    expect(await cache.accessToken(otherKey, context)).toBe("ya29.other");
    expect(fake.calls).toHaveLength(2);
  });

  it("turns a refusal into an HTTP error naming the account and Google's answer, and does not cache it", async () => {
    const fake = tokenFetch([
      () =>
        Response.json(
          { error: "invalid_grant", error_description: "Invalid JWT Signature." },
          { status: 400 },
        ),
      granted("ya29.after"),
    ]);
    const cache = new ServiceAccountTokenCache();
    const context = { fetch: fake.fetch, provider: "vertex-ai" };
    const error = await cache.accessToken(key, context).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceAccountTokenError);
    expect(LlmHttpError.isInstance(error)).toBe(true);
    const httpError = error as ServiceAccountTokenError;
    expect(httpError.status).toBe(400);
    expect(httpError.url).toBe(tokenUri);
    expect(httpError.message).toContain(
      `vertex-ai could not get an access token for service account ${key.clientEmail} (from credentials)`,
    );
    expect(httpError.message).toContain("HTTP 400: invalid_grant: Invalid JWT Signature.");
    expect(httpError.message).not.toContain("PRIVATE KEY");
    expect(await cache.accessToken(key, context)).toBe("ya29.after");
  });

  it("reports an unreachable endpoint and an answer without access_token", async () => {
    const down = (async () => {
      throw new TypeError("fetch failed");
    }) as unknown as typeof fetch;
    const cache = new ServiceAccountTokenCache();
    const unreachable = await cache
      .accessToken(key, { fetch: down, provider: "vertex-ai" })
      .catch((caught: unknown) => caught);
    expect(LlmConnectionError.isInstance(unreachable)).toBe(true);
    expect(String(unreachable)).toMatch(
      /getting an access token for service account .* failed: fetch failed/,
    );

    const empty = tokenFetch([() => Response.json({ id_token: "x" })]);
    const malformed = await cache
      .accessToken(key, { fetch: empty.fetch, provider: "vertex-ai" })
      .catch((caught: unknown) => caught);
    expect(LlmMalformedResponseError.isInstance(malformed)).toBe(true);
    expect(String(malformed)).toMatch(/has no access_token/);
  });
});
