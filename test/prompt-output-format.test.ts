/**
 * Golden `ctx.output_format` texts: every case in test/fixtures/prompt/output-format/*.txt renders its
 * target type with its options and must match the expected text byte for byte.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseOutputFormatOptions, renderOutputFormat } from "../src/prompt/index.js";
import { readFixtureCases } from "./prompt-fixture-cases.js";
import { fixtureIr, fixtureType } from "./prompt-fixture-ir.js";

const cases = readFixtureCases(join(import.meta.dirname, "fixtures", "prompt", "output-format"));

describe("ctx.output_format golden cases", () => {
  it("has at least 50 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(50);
  });

  for (const fixture of cases) {
    it(`${fixture.file}: ${fixture.name}`, () => {
      const ir = fixtureIr(fixture);
      const target = fixtureType(fixture, fixture.settings.target ?? "string", ir);
      const render = (): string =>
        renderOutputFormat(
          ir,
          target,
          parseOutputFormatOptions(JSON.parse(fixture.settings.options ?? "{}")),
        );
      if (fixture.error !== undefined) expect(render).toThrow(fixture.error);
      else expect(render()).toBe(fixture.expect);
    });
  }
});
