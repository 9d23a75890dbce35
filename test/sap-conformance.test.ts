/**
 * The SAP conformance table: every `test/fixtures/sap/*.cases` file, one test per case (schema, raw
 * answer, target type → expected value or error, and the exact flags). Each raw answer is also fed to the
 * fixing parser in random chunks, which must build the same trees as a one-shot parse (the resumable
 * contract the streaming parser relies on). `UPDATE_EXPECT=1` fills in the flags (and the value of a case
 * that states none) from actual output; a stated value or error is still checked, never overwritten.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Ir } from "../src/ir/index.js";
import { parseTypeExpression } from "../src/language/index.js";
import { evaluateConstraint } from "../src/prompt/index.js";
import { FixingParser, fixingParse, parseValue, SapParseError } from "../src/sap/index.js";
import {
  irForCase,
  readCaseFile,
  type SapCase,
  type SapCaseFile,
  summarizeFlags,
  writeCaseFile,
} from "./sap-fixture-file.js";

const folder = join(import.meta.dirname, "fixtures", "sap");
const update = process.env.UPDATE_EXPECT === "1";

const irFor = (entry: SapCase): Ir => irForCase(entry, folder);

interface Outcome {
  value?: unknown;
  error?: { code: string; path: string };
  flags: string[];
}

function run(entry: SapCase): Outcome {
  const ir = irFor(entry);
  const { type, diagnostics } = parseTypeExpression(entry.type, ir);
  if (!type) throw new Error(`bad type ${entry.type}: ${diagnostics.map((d) => d.message).join("; ")}`);
  try {
    const result = parseValue(entry.raw, type, ir, {
      partial: entry.partial,
      constraintEvaluator: evaluateConstraint,
    });
    // Every repair of a final parse points at the stretch of the answer it concerns.
    for (const flag of entry.partial ? [] : result.flags) {
      const span = flag.span;
      expect(span, `${flag.kind} ${flag.path} has no span`).toBeDefined();
      expect(0 <= span!.start && span!.start <= span!.end && span!.end <= entry.raw.length).toBe(true);
    }
    return { value: result.value, flags: result.flags.map((flag) => `${flag.kind} ${flag.path}`).sort() };
  } catch (error) {
    if (!SapParseError.isInstance(error)) throw error;
    expect(error.raw).toBe(entry.raw);
    expect(error.message).toContain(error.expected);
    return { error: { code: error.code, path: error.path }, flags: [] };
  }
}

/** A small deterministic generator, so chunk splits are random-looking but reproducible. */
function splitter(seed: number): (max: number) => number {
  let state = seed || 1;
  return (max) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return 1 + (state % max);
  };
}

const files = readdirSync(folder)
  .filter((name) => name.endsWith(".cases"))
  .sort();
const loaded = new Map<string, SapCaseFile>();
let total = 0;

for (const name of files) {
  const file = readCaseFile(readFileSync(join(folder, name), "utf8"), name);
  for (const entry of file.cases) {
    if (entry.rawFile !== undefined) entry.raw = readFileSync(join(folder, entry.rawFile), "utf8");
    if (entry.valueFile !== undefined)
      entry.value = JSON.parse(readFileSync(join(folder, entry.valueFile), "utf8"));
  }
  loaded.set(name, file);
  total += file.cases.length;
  describe(name, () => {
    file.cases.forEach((entry, position) => {
      it(`${entry.name} (line ${entry.line})`, () => {
        const outcome = run(entry);
        const stated = entry.hasValue || entry.error !== undefined;
        if (update && !stated) {
          entry.hasValue = outcome.error === undefined;
          entry.value = outcome.value;
          if (outcome.error) entry.error = outcome.error;
        }
        if (entry.error) {
          expect(
            outcome.error,
            `expected error ${entry.error.code}, got value ${JSON.stringify(outcome.value)}`,
          ).toEqual(entry.error);
        } else {
          expect(outcome.error, `unexpected error ${JSON.stringify(outcome.error)}`).toBeUndefined();
          expect(entry.hasValue, "the case states no expected value").toBe(true);
          expect(outcome.value).toEqual(entry.value);
        }
        // In update mode a stated value or error is still checked (above); only the flags are rewritten.
        if (update) {
          entry.flags = outcome.flags;
          return;
        }
        expect(entry.flags, "the case states no expected flags (flags: none for none)").toBeDefined();
        const counted = entry.flags!.some((flag) => flag.includes(" ×"));
        expect(counted ? summarizeFlags(outcome.flags) : outcome.flags).toEqual([...entry.flags!].sort());
      });
      it(`${entry.name}: chunked fixing parse equals one-shot`, () => {
        const whole = fixingParse(entry.raw);
        const next = splitter(position * 7919 + entry.raw.length);
        for (let round = 0; round < 3; round++) {
          const parser = new FixingParser();
          for (let at = 0; at < entry.raw.length; ) {
            const size = next(round === 0 ? 3 : 40);
            parser.push(entry.raw.slice(at, at + size));
            at += size;
          }
          expect(parser.end()).toEqual(whole);
        }
      });
    });
  });
}

describe("the conformance table", () => {
  it("has at least 400 cases", () => {
    expect(total).toBeGreaterThanOrEqual(400);
  });
});

afterAll(() => {
  if (!update) return;
  for (const [name, file] of loaded) writeFileSync(join(folder, name), writeCaseFile(file));
});
