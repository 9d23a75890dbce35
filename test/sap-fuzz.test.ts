/**
 * A bounded fuzz run (10^4 mutated answers, seeded; `npm run bench -- fuzz` runs 10^6): never an
 * exception other than SapParseError, never prototype pollution, a stream's `finish()` equals
 * `parseValue`, its last partial is the final value wherever the answer ends settled, no partial goes
 * backwards without a `ReadingSwitch` flag, nor does the end (`finish()` announces what it replaced,
 * `endChange`), and the work per character stays bounded (steps, not time).
 */
import { describe, expect, it } from "vitest";
import { loadSeeds, runFuzz } from "../bench/fuzz/fuzz-answers.js";

describe("fuzzed answers", () => {
  const counts = runFuzz(loadSeeds(), 10_000, 7, { streamEvery: 10, streamAtMost: 2_000 });

  it("never throw anything but SapParseError", () => {
    expect(counts.examples.untypedExceptions ?? []).toEqual([]);
    expect(counts.untypedExceptions).toBe(0);
  });

  it("never pollute a prototype", () => {
    expect(counts.prototypePollution).toBe(0);
  });

  it("finish the same in a stream as one-shot", () => {
    expect(counts.examples.finishDisagreements ?? []).toEqual([]);
  });

  it("end a stream on the final value wherever the answer ends settled", () => {
    expect(counts.examples.lastPartialDisagreements ?? []).toEqual([]);
    expect(counts.lastPartialDisagreements).toBe(0);
  });

  it("never end a stream replacing what its last partial showed without a ReadingSwitch", () => {
    expect(counts.examples.shownThenReplaced ?? []).toEqual([]);
    expect(counts.shownThenReplaced).toBe(0);
  });

  it("never go backwards in a stream without a ReadingSwitch", () => {
    expect(counts.examples.backwardsPartials ?? []).toEqual([]);
    expect(counts.backwardsPartials).toBe(0);
  });

  it("cost work in proportion to their length", () => {
    expect(counts.inputs).toBe(10_000);
    expect(counts.maxStepsPerCharacter).toBeGreaterThan(0);
    expect(counts.maxStepsPerCharacter).toBeLessThan(100);
  });
});
