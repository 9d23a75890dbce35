/** The small pure policies: finish reasons, roles, retry-after, redaction. */
import { describe, expect, it } from "vitest";
import { applyRolePolicy } from "./apply-role-policy.js";
import { isFinishReasonAllowed } from "./finish-reason-policy.js";
import { parseRetryAfter } from "./parse-retry-after.js";
import { redactHeaders, redactRequest, redactSecrets, redactUrl } from "./redact.js";

describe("isFinishReasonAllowed", () => {
  it.each([
    [{}, "length", true],
    [{}, undefined, true],
    [{ allowList: ["stop"] }, "stop", true],
    [{ allowList: ["stop"] }, "length", false],
    [{ allowList: ["stop"] }, undefined, false],
    [{ denyList: ["length"] }, "length", false],
    [{ denyList: ["length"] }, "stop", true],
    [{ denyList: ["length"] }, undefined, true],
    [{ allowList: ["stop"], denyList: ["stop"] }, "stop", true],
  ])("%j allows %s: %s", (policy, reason, allowed) => {
    expect(isFinishReasonAllowed(policy, reason)).toBe(allowed);
  });
});

describe("applyRolePolicy", () => {
  const text = (value: string) => [{ type: "text" as const, text: value }];
  it("maps roles outside allowed_roles to default_role, then remaps, and filters metadata", () => {
    const result = applyRolePolicy(
      [
        { role: "system", parts: text("s"), metadata: { cache_control: { type: "ephemeral" }, other: 1 } },
        { role: "tool", parts: text("t") },
        { role: "assistant", parts: text("a"), metadata: { other: 2 } },
      ],
      {
        allowedRoles: ["system", "user", "assistant"],
        defaultRole: "user",
        remapRoles: { assistant: "model" },
        allowedRoleMetadata: ["cache_control"],
      },
    );
    expect(result).toEqual([
      { role: "system", parts: text("s"), metadata: { cache_control: { type: "ephemeral" } } },
      { role: "user", parts: text("t") },
      // Metadata filtered away leaves `{}`: the message was given some (openai-generic sends it as parts).
      { role: "model", parts: text("a"), metadata: {} },
    ]);
  });

  it("forwards no metadata by default and all with 'all'", () => {
    const message = { role: "user", parts: text("u"), metadata: { a: 1 } };
    const policy = { allowedRoles: ["user"], defaultRole: "user", remapRoles: {} };
    expect(applyRolePolicy([message], { ...policy, allowedRoleMetadata: "none" })[0]?.metadata).toEqual({});
    expect(
      applyRolePolicy([{ role: "user", parts: text("u") }], { ...policy, allowedRoleMetadata: "all" })[0],
    ).not.toHaveProperty("metadata");
    expect(applyRolePolicy([message], { ...policy, allowedRoleMetadata: "all" })[0]?.metadata).toEqual({
      a: 1,
    });
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it.each([
    [{ "retry-after": "3" }, 3000],
    [{ "retry-after": "0.5" }, 500],
    [{ "retry-after-ms": "250", "retry-after": "9" }, 250],
    [{ "retry-after": "Thu, 01 Jan 2026 00:00:10 GMT" }, 10_000],
    [{ "retry-after": "Wed, 31 Dec 2025 23:59:00 GMT" }, 0],
    [{ "retry-after": "soon" }, undefined],
    [{}, undefined],
  ])("%j → %s ms", (headers, expected) => {
    expect(parseRetryAfter(new Headers(headers), now)).toBe(expected);
  });
});

describe("redaction", () => {
  it("redacts credential headers by name and keeps the rest", () => {
    expect(
      redactHeaders({
        authorization: "Bearer sk-1",
        "x-api-key": "a",
        "api-key": "b",
        "x-goog-api-key": "c",
        "X-Gateway-Token": "d",
        "content-type": "application/json",
        "anthropic-version": "2023-06-01",
      }),
    ).toEqual({
      authorization: "[REDACTED]",
      "x-api-key": "[REDACTED]",
      "api-key": "[REDACTED]",
      "x-goog-api-key": "[REDACTED]",
      "X-Gateway-Token": "[REDACTED]",
      "content-type": "application/json",
      "anthropic-version": "2023-06-01",
    });
  });

  it("redacts secret query parameters", () => {
    expect(redactUrl("https://x.test/m:generate?alt=sse&key=AIza123&api-version=1#frag")).toBe(
      "https://x.test/m:generate?alt=sse&key=[REDACTED]&api-version=1#frag",
    );
    expect(redactUrl("https://x.test/path")).toBe("https://x.test/path");
  });

  it("redactRequest leaves the original request untouched", () => {
    const request = {
      url: "https://x.test?token=t0k",
      method: "POST" as const,
      headers: { authorization: "Bearer s" },
      body: { a: 1 },
    };
    expect(redactRequest(request)).toEqual({
      url: "https://x.test?token=[REDACTED]",
      method: "POST",
      headers: { authorization: "[REDACTED]" },
      body: { a: 1 },
    });
    expect(request.headers.authorization).toBe("Bearer s");
  });

  it("redacts known secret values in free text, ignoring tiny or missing ones", () => {
    expect(redactSecrets("key sk-abcdef and sk-abcdef again; ab", ["sk-abcdef", "ab", undefined])).toBe(
      "key [REDACTED] and [REDACTED] again; ab",
    );
  });
});
