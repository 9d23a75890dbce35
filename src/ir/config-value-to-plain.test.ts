import { describe, expect, it } from "vitest";
import { configValueToPlain } from "./config-value-to-plain.js";

describe("configValueToPlain", () => {
  it("turns nested config values into JSON and hands env references, with their path, to the caller", () => {
    const seen: string[] = [];
    const plain = configValueToPlain(
      {
        kind: "map",
        entries: {
          model: { kind: "string", value: "gpt-4o" },
          temperature: { kind: "number", value: 0 },
          stream: { kind: "bool", value: true },
          stop: { kind: "null" },
          headers: { kind: "map", entries: { "x-key": { kind: "env", name: "KEY" } } },
          strategy: {
            kind: "array",
            items: [
              { kind: "string", value: "A" },
              { kind: "env", name: "B" },
            ],
          },
        },
      },
      (name, path) => {
        seen.push(`${name}@${path}`);
        return `<${name}>`;
      },
    );
    expect(plain).toEqual({
      model: "gpt-4o",
      temperature: 0,
      stream: true,
      stop: null,
      headers: { "x-key": "<KEY>" },
      strategy: ["A", "<B>"],
    });
    expect(seen).toEqual(["KEY@headers.x-key", "B@strategy[1]"]);
  });
});
