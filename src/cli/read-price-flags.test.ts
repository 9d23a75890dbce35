import { describe, expect, it } from "vitest";
import { readPriceFlags } from "./read-price-flags.js";

describe("readPriceFlags", () => {
  it("reads MODEL=INPUT/OUTPUT in dollars per million tokens", () => {
    expect(readPriceFlags(["mock=1/4", "openai/my-tune=0.25/1.5"])).toEqual({
      mock: { input: 1, output: 4 },
      "openai/my-tune": { input: 0.25, output: 1.5 },
    });
  });

  it("names the flag and the expected form for anything else", () => {
    for (const bad of ["mock", "mock=1", "mock=1/x", "=1/2", "mock=-1/2"])
      expect(() => readPriceFlags([bad])).toThrow(`--price must be MODEL=INPUT/OUTPUT`);
  });
});
