/**
 * A bounded fuzz run (10^4 mutated answers, seeded; `npm run bench -- fuzz` runs 10^6): never an
 * exception other than SapParseError, never prototype pollution, a stream's `finish()` equals
 * `parseValue`, its last partial is the final value wherever the answer ends settled, no partial goes
 * backwards without a `ReadingSwitch` flag, nor does the end (`finish()` announces what it replaced,
 * `endChange`), and the work per character stays bounded (steps, not time).
 */
import { describe, expect, it } from "vitest";
import { loadSeeds, runFuzz } from "../bench/fuzz/fuzz-answers.js";

/**
 * Streams of this sample whose end changes what the last partial showed although the answer ends
 * settled, each announced (`ReadingSwitch` on `finish()`'s result: the next test holds that), with why.
 * They are known drifts between what a read may show and what the end chooses, not allowed cases: one
 * that is fixed must leave this list, and any other fails the test.
 */
const KNOWN_END_CHANGES = new Map<string, string>(
  // (Empty: `r: 1⏎u: x⏎r: 2⏎r: 3⏎` for `Row[]`, read at the end as one object, is records in both now.)
);

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
    const found = counts.examples.lastPartialDisagreements ?? [];
    expect(found.filter((example) => !KNOWN_END_CHANGES.has(example.text))).toEqual([]);
    // (One fixed, or no longer in the sample, leaves the list.)
    const texts = new Set(found.map((example) => example.text));
    expect([...KNOWN_END_CHANGES.keys()].filter((text) => !texts.has(text))).toEqual([]);
    expect(counts.lastPartialDisagreements).toBe(counts.examples.lastPartialDisagreements?.length ?? 0);
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
