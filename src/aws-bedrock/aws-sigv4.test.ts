/**
 * SigV4 against AWS's published vectors: the Signature Version 4 test suite (`get-vanilla`,
 * `get-vanilla-query-order-key-case`, `post-vanilla`; credentials AKIDEXAMPLE, 2015-08-30T12:36:00Z,
 * us-east-1, service `service`) and the documented IAM `ListUsers` example, step by step.
 */
import { describe, expect, it } from "vitest";
import { awsUriEncode, formatAmzDate, signAwsRequest } from "./aws-sigv4.js";

const credentials = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
};
const now = new Date("2015-08-30T12:36:00Z");
const suite = { credentials, region: "us-east-1", service: "service", now };

describe("signAwsRequest", () => {
  it.each([
    [
      "get-vanilla",
      "GET",
      "https://example.amazonaws.com/",
      "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
    ],
    [
      "get-vanilla-query-order-key-case",
      "GET",
      "https://example.amazonaws.com/?Param2=value2&Param1=value1",
      "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500",
    ],
    [
      "post-vanilla",
      "POST",
      "https://example.amazonaws.com/",
      "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b",
    ],
  ])("matches the test suite's %s", async (_name, method, url, signature) => {
    const signed = await signAwsRequest({ method, url, headers: {}, body: "" }, suite);
    expect(signed.signature).toBe(signature);
    expect(signed.headers).toEqual({
      "x-amz-date": "20150830T123600Z",
      authorization: `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=${signature}`,
    });
  });

  it("matches the documented IAM ListUsers example at every step", async () => {
    const signed = await signAwsRequest(
      {
        method: "GET",
        url: "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08",
        headers: { "Content-Type": "application/x-www-form-urlencoded; charset=utf-8" },
        body: "",
      },
      { ...suite, service: "iam" },
    );
    expect(signed.canonicalRequest).toBe(
      [
        "GET",
        "/",
        "Action=ListUsers&Version=2010-05-08",
        "content-type:application/x-www-form-urlencoded; charset=utf-8",
        "host:iam.amazonaws.com",
        "x-amz-date:20150830T123600Z",
        "",
        "content-type;host;x-amz-date",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      ].join("\n"),
    );
    expect(signed.stringToSign).toBe(
      [
        "AWS4-HMAC-SHA256",
        "20150830T123600Z",
        "20150830/us-east-1/iam/aws4_request",
        "f536975d06c0309214f805bb90ccff089219ecd68b2577efef23edd43b7e1a59",
      ].join("\n"),
    );
    expect(signed.signature).toBe("5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7");
    expect(signed.headers["Content-Type"]).toBe("application/x-www-form-urlencoded; charset=utf-8");
  });

  it("signs the body: another body is another signature", async () => {
    const request = { method: "POST", url: "https://example.amazonaws.com/", headers: {} };
    const empty = await signAwsRequest({ ...request, body: "" }, suite);
    const withBody = await signAwsRequest({ ...request, body: '{"a":1}' }, suite);
    expect(withBody.signature).not.toBe(empty.signature);
    // The SHA-256 of `{"a":1}`, the canonical request's last line.
    expect(withBody.canonicalRequest.split("\n").at(-1)).toBe(
      "015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862",
    );
  });

  it("adds and signs the session token of temporary credentials", async () => {
    const signed = await signAwsRequest(
      { method: "POST", url: "https://example.amazonaws.com/", headers: {}, body: "" },
      { ...suite, credentials: { ...credentials, sessionToken: "FQoGZXIvYXdzEXAMPLE" } },
    );
    expect(signed.headers["x-amz-security-token"]).toBe("FQoGZXIvYXdzEXAMPLE");
    expect(signed.headers.authorization).toContain("SignedHeaders=host;x-amz-date;x-amz-security-token,");
    expect(signed.canonicalRequest).toContain("x-amz-security-token:FQoGZXIvYXdzEXAMPLE\n");
  });

  it("encodes each path segment once more, as AWS does for every service but S3 (Bedrock model ids)", async () => {
    const signed = await signAwsRequest(
      {
        method: "POST",
        url: "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-v2%3A1/converse",
        headers: { "content-type": "application/json" },
        body: "{}",
      },
      { ...suite, service: "bedrock" },
    );
    expect(signed.canonicalRequest.split("\n")[1]).toBe("/model/anthropic.claude-v2%253A1/converse");
    expect(signed.stringToSign).toContain("20150830/us-east-1/bedrock/aws4_request");
  });

  it("signs the port in host and replaces an earlier signature instead of signing it", async () => {
    const request = { method: "POST", url: "http://127.0.0.1:8080/x", headers: {}, body: "" };
    const first = await signAwsRequest(request, suite);
    expect(first.canonicalRequest).toContain("host:127.0.0.1:8080\n");
    const again = await signAwsRequest({ ...request, headers: first.headers }, suite);
    expect(again.signature).toBe(first.signature);
  });

  it("trims header values and collapses inner whitespace", async () => {
    const signed = await signAwsRequest(
      {
        method: "GET",
        url: "https://example.amazonaws.com/",
        headers: { "My-Header1": "  a   b  c " },
        body: "",
      },
      suite,
    );
    expect(signed.canonicalRequest).toContain("my-header1:a b c\n");
  });
});

describe("SigV4 helpers", () => {
  it("formats the signing time", () => {
    expect(formatAmzDate(new Date("2024-01-02T03:04:05.678Z"))).toBe("20240102T030405Z");
  });

  it("percent-encodes everything but unreserved characters", () => {
    expect(awsUriEncode("a-b_c.d~e f!'()*:/%")).toBe("a-b_c.d~e%20f%21%27%28%29%2A%3A%2F%25");
  });
});
