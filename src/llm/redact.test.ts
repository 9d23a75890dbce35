import { describe, expect, it } from "vitest";
import {
  collectSecrets,
  hasUserInfo,
  redactedText as REDACTED,
  redactHeaders,
  redactLoggedHeaders,
  redactRequest,
  redactText,
  redactUrl,
  redactValue,
  withRequestSecrets,
} from "./redact.js";

describe("redaction", () => {
  const secrets = collectSecrets({
    api_key: "sk-live-1234567890",
    model: "gpt-4o",
    headers: { "x-custom-token": "tok-abcdef", "x-trace": "trace-1" },
    max_tokens: 100,
  });

  it("collects credential-named option values, nested ones included, and nothing else", () => {
    expect(secrets).toEqual(["sk-live-1234567890", "tok-abcdef"]);
  });

  it("keeps a credential object's identifying fields visible and everything else in it secret", () => {
    const key = {
      type: "service_account",
      project_id: "acme-prod",
      private_key_id: "0123456789abcdef",
      private_key: "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n",
      client_email: "llm@acme-prod.iam.gserviceaccount.com",
      token_uri: "https://oauth2.googleapis.com/token",
      unexpected_field: "kept-secret-by-default",
    };
    expect(collectSecrets({ credentials: key, location: "us-central1" }).sort()).toEqual(
      [key.private_key, key.private_key_id, key.unexpected_field].sort(),
    );
  });

  it("shows a credentials key file path (the file's content is the secret) but masks credentials JSON", () => {
    const json = '{"type":"service_account","private_key":"-----BEGIN PRIVATE KEY-----"}';
    expect(collectSecrets({ credentials: "keys/service-account.json" })).toEqual([]);
    expect(collectSecrets({ credentials: ` ${json}` })).toEqual([` ${json}`]);
    expect(collectSecrets({ credentials_content: "not-json-but-still-secret" })).toEqual([
      "not-json-but-still-secret",
    ]);
  });

  it("masks secrets wherever they appear in text, plus Bearer tokens and key= parameters", () => {
    expect(redactText("bad key sk-live-1234567890 given", secrets)).toBe(`bad key ${REDACTED} given`);
    expect(redactText("Authorization: Bearer abcdefghijkl", [])).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactText("https://host/v1/models?alt=sse&key=AIzaXYZ123", [])).toBe(
      `https://host/v1/models?alt=sse&key=${REDACTED}`,
    );
  });

  it("masks credential headers by name and secret values in other headers", () => {
    expect(
      redactLoggedHeaders(
        {
          authorization: "Bearer sk-live-1234567890",
          "x-api-key": "k",
          "x-echo": "tok-abcdef",
          accept: "json",
        },
        secrets,
      ),
    ).toEqual({ authorization: REDACTED, "x-api-key": REDACTED, "x-echo": REDACTED, accept: "json" });
  });

  it("copies JSON bodies deeply with secrets removed, leaving the original untouched", () => {
    const body = { messages: [{ content: "my key is sk-live-1234567890" }], api_key: "short" };
    expect(redactValue(body, secrets)).toEqual({
      messages: [{ content: `my key is ${REDACTED}` }],
      api_key: REDACTED,
    });
    expect(body.messages[0]?.content).toContain("sk-live");
  });
});

describe("one redaction rule for the whole package", () => {
  const headers = {
    authorization: "Bearer sk-live-abcdefgh",
    "proxy-authorization": "Basic dXNlcjpwYXNz",
    cookie: "session=abc123456",
    "set-cookie": "id=abc123456",
    "x-api-key": "sk-ant-abcdefgh",
    "api-key": "azure-abcdefgh",
    "x-goog-api-key": "AIzaabcdefgh",
    "x-amz-security-token": "FwoGZXIvYXdzabcdefgh",
    "x-client-secret": "s3cr3t-abcdefgh",
    "content-type": "application/json",
    "anthropic-version": "2023-06-01",
  };

  it("masks the same headers, with the same marker, in Collector logs and in printed requests", () => {
    const logged = redactLoggedHeaders(headers, []);
    expect(logged).toEqual(redactHeaders(headers));
    expect(logged.cookie).toBe(REDACTED);
    expect(logged["content-type"]).toBe("application/json");
    expect(Object.values(logged).filter((value) => value === REDACTED)).toHaveLength(9);
  });

  it("prints a request without its key, keeping BAML's body readers", () => {
    const body = Object.defineProperty({ model: "m" }, "json", { value: () => ({ model: "m" }) });
    const request = { url: "https://x.test/v1?key=AIzaabcdefgh", method: "POST" as const, headers, body };
    const printed = redactRequest(request);
    expect(printed.url).toBe(`https://x.test/v1?key=${REDACTED}`);
    expect(printed.headers.authorization).toBe(REDACTED);
    expect((printed.body as unknown as { json: () => unknown }).json()).toEqual({ model: "m" });
  });

  it("treats every option read from env as secret, whatever its name, except options that locate", () => {
    const fromEnv = [
      { option: "headers.Ocp-Apim-Subscription-Key", value: "apim-value-123" },
      { option: "headers.x-key", value: "xkey-value-456" },
      { option: "base_url", value: "https://gateway.example.com/v1" },
      { option: "model", value: "gpt-4o-mini" },
      { option: "credentials", value: "keys/service-account.json" },
      { option: "headers.x-short", value: "abc" },
    ];
    expect(collectSecrets({}, fromEnv).sort()).toEqual(["apim-value-123", "xkey-value-456"]);
  });

  it("masks URL user info, in whole URLs, in text, and as secrets of the options", () => {
    expect(hasUserInfo("http://user:pass@host/v1")).toBe(true);
    expect(hasUserInfo("http://host/v1?next=a@b")).toBe(false);
    expect(redactUrl("http://user:hunter22@host:8080/v1?key=k123")).toBe(
      `http://${REDACTED}@host:8080/v1?key=${REDACTED}`,
    );
    expect(redactText("POST https://u:hunter22@api.example.com/x failed; mail a@b.c", [])).toBe(
      `POST https://${REDACTED}@api.example.com/x failed; mail a@b.c`,
    );
    expect(collectSecrets({ base_url: "https://svc:hunter22-long@api.example.com" }).sort()).toEqual(
      ["hunter22-long", "svc:hunter22-long"].sort(),
    );
  });

  it("redactRequest masks the secrets of the call that built the request, by value, in any header or body", () => {
    const request = withRequestSecrets(
      {
        method: "POST" as const,
        url: "https://api.example.com/v1/chat/completions",
        headers: { "x-functions-key": "azfn-value-789", "content-type": "application/json" },
        body: { model: "m", metadata: { echo: "azfn-value-789" } },
      },
      ["azfn-value-789"],
    );
    const shown = redactRequest(request);
    expect(shown.headers["x-functions-key"]).toBe(REDACTED);
    expect(shown.body).toEqual({ model: "m", metadata: { echo: REDACTED } });
    expect(JSON.stringify(request)).toContain("azfn-value-789");
    expect(Object.keys(request)).toEqual(["method", "url", "headers", "body"]);
  });
});
