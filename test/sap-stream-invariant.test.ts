/**
 * One set of rules for final answers and streams. Every final-parse conformance case
 * (`test/fixtures/sap/*.cases`) is streamed whole, one UTF-16 code unit at a time and in seeded random
 * splits, and the stream must agree with final mode (`parseValue`: the same reader given the whole answer
 * and ended, so what is checked is what a stream shows on the way there):
 * - when the final parse succeeds, the last partial is the final value as a partial (`partialType`:
 *   `@stream.with_state` values wrapped, state `Complete`), except where final mode read a value the
 *   stream cannot show yet: a value at the point where the answer was cut off (final mode flags it
 *   `Incomplete`, or a number, bool or enum where the answer ends: it may still grow), an item final
 *   mode dropped (`ItemDropped`);
 * - between consecutive partials nothing goes backwards: a value shown is never replaced by null, a list
 *   never shrinks (except by an item final mode drops), a string only grows, a number, bool or enum is
 *   replaced only by another (a repeated key), a `{ value, state }` state only advances — unless the push says the top-level reading
 *   switched (a `ReadingSwitch` flag: another candidate won once more text arrived);
 * - unless `finish()` announces that the end replaced what the last partial showed (`ReadingSwitch` on
 *   its result: what only the end decides, decision 0039);
 * - when the final parse fails, only the monotonicity is required.
 * The suite that compares the stream with `parsePartial` (the same reader) cannot see any of this.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Ir, Type } from "../src/ir/index.js";
import { parseTypeExpression } from "../src/language/index.js";
import { evaluateConstraint } from "../src/prompt/index.js";
import { createStreamParser, type Flag, parseValue, partialType, SapParseError } from "../src/sap/index.js";
import { finalAsPartial } from "../src/sap/stream/check-partial-value.js";
import { irForCase, readCaseFile, type SapCase } from "./sap-fixture-file.js";
import { differs, endsOpen, heldBack, regression, switchedReading } from "./sap-stream-agreement.js";

const folder = join(import.meta.dirname, "fixtures", "sap");
const options = { constraintEvaluator: evaluateConstraint };

const irFor = (entry: SapCase): Ir => irForCase(entry, folder);

/** A seeded generator (mulberry32), so a failing split can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomSplit(text: string, seed: number): string[] {
  const next = random(seed);
  const chunks: string[] = [];
  let at = 0;
  while (at < text.length) {
    const size = 1 + Math.floor(next() * 24);
    chunks.push(text.slice(at, at + size));
    at += size;
  }
  return chunks;
}

type Final = { ok: true; value: unknown; flags: Flag[] } | { ok: false };

function finalOf(raw: string, type: Type, ir: Ir): Final {
  try {
    const result = parseValue(raw, type, ir, options);
    return { ok: true, value: result.value, flags: result.flags };
  } catch (error) {
    if (SapParseError.isInstance(error)) return { ok: false };
    throw error;
  }
}

/** Streams `chunks`; returns the first disagreement with final mode, or undefined. */
function check(type: Type, ir: Ir, chunks: string[], final: Final, how: string): string | undefined {
  const parser = createStreamParser(type, ir, options);
  const dropped = final.ok ? heldBack(final.flags) : new Set<string>();
  let previous: unknown = null;
  let soFar = "";
  for (const chunk of chunks) {
    soFar += chunk;
    const step = parser.push(chunk);
    if (!switchedReading(step.flags)) {
      const problem = regression(previous, step.value, "$", dropped);
      if (problem)
        return `${how}: went back without a ReadingSwitch after ${JSON.stringify(soFar.slice(-40))}: ${problem}`;
    }
    previous = step.value;
  }
  if (!final.ok) return undefined;
  const expected = finalAsPartial(final.value, partialType(type, ir), ir);
  const problem = differs(
    previous,
    expected,
    "$",
    heldBack(final.flags),
    endsOpen(soFar, final.flags, final.value),
    soFar,
  );
  if (problem === undefined) return undefined;
  // The end may replace what the last partial showed where only it decides, if `finish()` says so
  // (`ReadingSwitch` on its result, decision 0039; test/sap-stream-end-change.test.ts lists those cases).
  if (switchedReading(parser.finish().flags)) return undefined;
  return `${how}: the last partial is not the final value: ${problem}`;
}

const cases: SapCase[] = [];
for (const name of readdirSync(folder)
  .filter((file) => file.endsWith(".cases"))
  .sort()) {
  const file = readCaseFile(readFileSync(join(folder, name), "utf8"), name);
  for (const entry of file.cases) {
    if (entry.partial) continue;
    if (entry.rawFile !== undefined) entry.raw = readFileSync(join(folder, entry.rawFile), "utf8");
    cases.push({ ...entry, name: `${name}: ${entry.name}` });
  }
}

/**
 * Cases where the stream still disagrees with final mode, each with the reason. They run as expected
 * failures (`it.fails`): one that starts to pass must leave this list.
 */
const KNOWN_DRIFTS = new Map<string, string>([]);

describe("a stream ends where final mode does, and never goes back", () => {
  for (const entry of cases) {
    const known = KNOWN_DRIFTS.get(entry.name);
    (known === undefined ? it : it.fails)(
      known === undefined ? entry.name : `${entry.name} (known drift: ${known})`,
      () => {
        const ir = irFor(entry);
        const type = parseTypeExpression(entry.type, ir).type!;
        const raw = entry.raw;
        const final = finalOf(raw, type, ir);
        const problems = [
          check(type, ir, [raw], final, "one chunk"),
          check(type, ir, raw.split(""), final, "per character"),
          ...[1, 2, 3].map((seed) => check(type, ir, randomSplit(raw, seed), final, `random split ${seed}`)),
        ].filter((problem) => problem !== undefined);
        if (problems.length > 0) throw new Error(problems.join("\n"));
      },
    );
  }

  it("covers the whole final-parse table", () => {
    expect(cases.length).toBeGreaterThanOrEqual(400);
    const names = new Set(cases.map((entry) => entry.name));
    expect([...KNOWN_DRIFTS.keys()].filter((name) => !names.has(name))).toEqual([]);
  });
});
