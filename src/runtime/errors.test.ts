import { describe, expect, it } from "vitest";
import {
  BamlAbortError,
  BamlAllClientsFailedError,
  BamlClientError,
  BamlClientFinishReasonError,
  BamlClientHttpError,
  BamlError,
  BamlInvalidArgumentError,
  BamlTimeoutError,
  BamlValidationError,
  isBamlError,
} from "./errors.js";

describe("runtime errors", () => {
  it("carry stable codes and BAML's class names", () => {
    const http = new BamlClientHttpError("HTTP 503", "Main", "openai", 503, "overloaded", 2000);
    expect([http.code, http.name, http.statusCode, http.body, http.retryAfterMs]).toEqual([
      "CLIENT_HTTP_ERROR",
      "BamlClientHttpError",
      503,
      "overloaded",
      2000,
    ]);
    expect(new BamlTimeoutError("slow", "Main", "openai", 100).code).toBe("TIMEOUT");
    expect(new BamlAbortError("stop").code).toBe("ABORTED");
    expect(new BamlInvalidArgumentError("bad", "a.b").path).toBe("a.b");
  });

  it("isInstance follows the class chain and rejects unrelated values", () => {
    const http = new BamlClientHttpError("HTTP 500", "Main", "openai", 500, "");
    expect(BamlError.isInstance(http)).toBe(true);
    expect(BamlClientError.isInstance(http)).toBe(true);
    expect(BamlClientHttpError.isInstance(http)).toBe(true);
    expect(BamlTimeoutError.isInstance(http)).toBe(false);
    expect(BamlValidationError.isInstance(new Error("x"))).toBe(false);
    expect(BamlError.isInstance(null)).toBe(false);
  });

  it("isInstance recognizes an error made by another copy of the package (same brand, other class)", () => {
    const foreign = Object.create(Error.prototype) as Record<symbol, unknown>;
    // The marks util/error-brand.ts sets: one registered symbol per class of the error's chain.
    for (const name of ["BamlError", "BamlValidationError"]) {
      Object.defineProperty(foreign, Symbol.for(`sapling.error.${name}`), { value: true });
    }
    expect(BamlValidationError.isInstance(foreign)).toBe(true);
    expect(BamlClientError.isInstance(foreign)).toBe(false);
  });

  it("the all-failed error lists attempts and keeps the last error as cause", () => {
    const first = new BamlClientError("connection refused", "Local", "openai-generic");
    const last = new BamlClientHttpError("HTTP 500", "Cloud", "openai", 500, "");
    const error = new BamlAllClientsFailedError([
      { clientName: "Local", provider: "openai-generic", error: first },
      { clientName: "Cloud", provider: "openai", error: last },
    ]);
    expect(error.message).toBe(
      "Every client failed (2 attempts):\n  1. Local (openai-generic): connection refused\n  2. Cloud (openai): HTTP 500",
    );
    expect(error.cause).toBe(last);
    expect(error.clientName).toBe("Cloud");
  });

  it("also answers to BAML's snake_case field names, so BAML-era handlers keep working", () => {
    const http = new BamlClientHttpError("HTTP 500", "Main", "openai", 500, "boom");
    expect([http.status_code, http.client_name, http.raw_response, http.detailed_message]).toEqual([
      500,
      "Main",
      "boom",
      "HTTP 500",
    ]);
    const invalid = new BamlValidationError("no value", "user: hi", "hello", undefined);
    expect([invalid.raw_output, invalid.prompt]).toEqual(["hello", "user: hi"]);
    const finish = new BamlClientFinishReasonError("cut", "Main", "openai", "length", "p", "raw");
    expect([finish.finish_reason, finish.raw_output]).toEqual(["length", "raw"]);
    expect([isBamlError(finish), isBamlError(new Error("x"))]).toEqual([true, false]);
  });
});
