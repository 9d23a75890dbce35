/**
 * Every SAP conformance case (`test/fixtures/sap/*.cases`), streamed. For each raw answer:
 * - in one chunk, one UTF-16 code unit at a time (so chunks cut escapes, surrogate pairs, numbers and
 *   `true`), and in random splits (fast-check): no `push` throws, and `finish()` gives exactly what the
 *   one-shot final `parseValue` gives (the same value, or the same error code and path): the same
 *   reader, given the answer in chunks and read after each, ends where it ends given the answer whole
 *   (docs/decisions/0055);
 * - after every chunk the partial equals the one-shot `parsePartial` of the text so far (answers up to
 *   1,500 characters; longer ones are checked at the random split points only);
 * - `changed` is false exactly when the partial equals the previous one, every partial has the shape
 *   of the type's partial type (`partialType`), and no partial handed out changes afterwards;
 * - prefix-mode cases (`partial: true`) give the table's stated value through `parsePartial` too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Ir, Type } from "../src/ir/index.js";
import { parseTypeExpression } from "../src/language/index.js";
import { evaluateConstraint } from "../src/prompt/index.js";
import {
  checkPartialValue,
  createStreamParser,
  parsePartial,
  parseValue,
  partialType,
  SapParseError,
} from "../src/sap/index.js";
import { irForCase, readCaseFile, type SapCase } from "./sap-fixture-file.js";

const folder = join(import.meta.dirname, "fixtures", "sap");

const irFor = (entry: SapCase): Ir => irForCase(entry, folder);

type Outcome = { value: unknown } | { error: { code: string; path: string } };

function outcomeOf(run: () => { value: unknown }): Outcome {
  try {
    return { value: run().value };
  } catch (error) {
    if (!SapParseError.isInstance(error)) throw error;
    return { error: { code: error.code, path: error.path } };
  }
}

const options = { constraintEvaluator: evaluateConstraint };

/** Streams `chunks`, checking each partial against the one-shot partial parse when `agree` says so. */
function stream(type: Type, ir: Ir, text: string, chunks: string[], agree: boolean): Outcome {
  const parser = createStreamParser(type, ir, options);
  const shape = partialType(type, ir);
  let previous: unknown = null;
  let soFar = "";
  // Every partial handed out, with a copy taken then: none may change afterwards.
  const handedOut: { value: unknown; copy: unknown }[] = [];
  for (const chunk of chunks) {
    soFar += chunk;
    const step = parser.push(chunk);
    if (agree)
      expect(step.value, `partial after ${JSON.stringify(soFar.slice(-40))}`).toEqual(
        parsePartial(soFar, type, ir, options).value,
      );
    if (step.changed) expect(checkPartialValue(step.value, shape, ir)).toBeUndefined();
    if (!step.changed) expect(step.value).toEqual(previous);
    else expect(step.value).not.toEqual(previous);
    if (step.changed && agree) handedOut.push({ value: step.value, copy: structuredClone(step.value) });
    previous = step.value;
  }
  for (const { value, copy } of handedOut) expect(value).toEqual(copy);
  expect(parser.text).toBe(text);
  return outcomeOf(() => parser.finish());
}

const cases: SapCase[] = [];
for (const name of readdirSync(folder)
  .filter((file) => file.endsWith(".cases"))
  .sort()) {
  const file = readCaseFile(readFileSync(join(folder, name), "utf8"), name);
  for (const entry of file.cases) {
    if (entry.rawFile !== undefined) entry.raw = readFileSync(join(folder, entry.rawFile), "utf8");
    if (entry.valueFile !== undefined)
      entry.value = JSON.parse(readFileSync(join(folder, entry.valueFile), "utf8"));
    cases.push({ ...entry, name: `${name}: ${entry.name}` });
  }
}

describe("every conformance case, streamed", () => {
  for (const entry of cases) {
    it(entry.name, () => {
      const ir = irFor(entry);
      const type = parseTypeExpression(entry.type, ir).type!;
      const raw = entry.raw;
      if (entry.partial) {
        expect(parsePartial(raw, type, ir, options).value).toEqual(entry.value);
        return;
      }
      const expected = outcomeOf(() => parseValue(raw, type, ir, options));
      const small = raw.length <= 1500;
      expect(stream(type, ir, raw, [raw], true)).toEqual(expected);
      expect(stream(type, ir, raw, raw.split(""), small)).toEqual(expected);
      fc.assert(
        fc.property(fc.array(fc.nat({ max: Math.max(0, raw.length) }), { maxLength: 12 }), (cuts) => {
          const points = [...new Set(cuts)].sort((a, b) => a - b);
          const chunks: string[] = [];
          let from = 0;
          for (const point of points) {
            chunks.push(raw.slice(from, point));
            from = point;
          }
          chunks.push(raw.slice(from));
          expect(stream(type, ir, raw, chunks, true)).toEqual(expected);
        }),
        { numRuns: small ? 8 : 2, seed: raw.length },
      );
    });
  }

  it("covers the whole final-parse table", () => {
    expect(cases.filter((entry) => !entry.partial).length).toBeGreaterThanOrEqual(400);
  });
});
