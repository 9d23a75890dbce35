import { describe, expect, it } from "vitest";
import type { Client } from "../ir/index.js";
import { BamlMissingEnvVarError } from "./errors.js";
import { resolveOptions } from "./resolve-options.js";

const client: Client = {
  name: "Main",
  provider: "openai",
  options: {
    model: { kind: "string", value: "gpt-4o" },
    api_key: { kind: "env", name: "OPENAI_API_KEY" },
    temperature: { kind: "number", value: 0 },
    headers: {
      kind: "map",
      entries: { "x-org": { kind: "env", name: "ORG" }, "x-fixed": { kind: "string", value: "1" } },
    },
    stop: { kind: "array", items: [{ kind: "string", value: "END" }, { kind: "null" }] },
    stream_options: { kind: "map", entries: { include_usage: { kind: "bool", value: true } } },
  },
};

describe("resolveOptions", () => {
  it("reads env references at call time and keeps every other value as written", () => {
    expect(resolveOptions(client, { OPENAI_API_KEY: "sk-1", ORG: "acme", UNUSED: "x" })).toEqual({
      model: "gpt-4o",
      api_key: "sk-1",
      temperature: 0,
      headers: { "x-org": "acme", "x-fixed": "1" },
      stop: ["END", null],
      stream_options: { include_usage: true },
    });
  });

  it("names the missing variable, the client and the option", () => {
    const error = (() => {
      try {
        resolveOptions(client, { OPENAI_API_KEY: "sk-1" });
      } catch (caught) {
        return caught;
      }
    })();
    expect(BamlMissingEnvVarError.isInstance(error)).toBe(true);
    const missing = error as BamlMissingEnvVarError;
    expect([missing.variable, missing.clientName, missing.option]).toEqual(["ORG", "Main", "headers.x-org"]);
    expect(missing.message).toMatch(/Client "Main" reads env\.ORG .*ORG is not set/);
  });
});
