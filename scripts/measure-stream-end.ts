/**
 * How often a stream's own reading at the end of its input differs from the final parse.
 * `npx tsx scripts/measure-stream-end.ts [fuzzInputs] [seed]`
 *
 * For every final-mode conformance case (`test/fixtures/sap/*.cases`) and `fuzzInputs` mutated answers
 * of the fuzz corpus (`bench/fuzz/fuzz-answers.ts`, default 20,000), the answer is streamed in one chunk
 * and in seeded random 1–24 character chunks. Two things are compared with `parseValue` of the whole
 * text, and counted by kind:
 * - the last partial against the final value in its partial shape (`finalAsPartial`), exactly;
 * - `finish()` (the stream's final value) against `parseValue`: the same value or the same error code.
 * A difference is classified: allowed by the agreement rules of the invariant test (the answer ends in
 * a value still open, a value cut off or dropped: `differs` finds nothing), the final parse fails where
 * the stream showed a value, the stream shows nothing where the final has a value, or other.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadSeeds, mutate } from "../bench/fuzz/fuzz-answers.js";
import type { Ir, Type } from "../src/ir/index.js";
import { parseTypeExpression } from "../src/language/index.js";
import { evaluateConstraint } from "../src/prompt/index.js";
import { createStreamParser, type Flag, partialType, SapParseError } from "../src/sap/index.js";
import { parseValue } from "../src/sap/parse-value.js";
import { finalAsPartial } from "../src/sap/stream/check-partial-value.js";
import { endsUnsettled } from "../src/sap/stream/create-stream-parser.js";
import { endRereads } from "../src/sap/stream/end-candidates.js";
import { irForCase, readCaseFile } from "../test/sap-fixture-file.js";
import { differs, endsOpen, heldBack } from "../test/sap-stream-agreement.js";
import { randomChunks, seededRandom } from "../test/seeded-random.js";

const options = { constraintEvaluator: evaluateConstraint };
type Outcome = { ok: true; value: unknown; flags: Flag[] } | { ok: false; code: string };

function outcome(run: () => { value: unknown; flags: Flag[] }): Outcome {
  try {
    const { value, flags } = run();
    return { ok: true, value, flags };
  } catch (error) {
    if (SapParseError.isInstance(error)) return { ok: false, code: error.code };
    throw error;
  }
}

const counts = new Map<string, number>();
const examples = new Map<string, string[]>();
function count(kind: string, example: string): void {
  counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const list = examples.get(kind) ?? [];
  if (list.length < 3) list.push(example);
  examples.set(kind, list);
}

function isEmptyPartial(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value as object).length === 0;
}

function measure(set: string, type: Type, ir: Ir, raw: string, chunks: string[]): void {
  if (raw === "") return;
  const final = outcome(() => parseValue(raw, type, ir, options));
  const parser = createStreamParser(type, ir, options);
  let last: unknown = null;
  for (const chunk of chunks) last = parser.push(chunk).value;
  const unsettled = endsUnsettled(parser); // (before `finish()`, which settles everything)
  const finished = outcome(() => parser.finish());
  const sameFinish =
    finished.ok === final.ok &&
    (finished.ok && final.ok
      ? JSON.stringify(finished.value) === JSON.stringify(final.value)
      : !finished.ok && !final.ok && finished.code === final.code);
  count(`${set}: streams`, "");
  if (!sameFinish) count(`${set}: finish() ≠ parseValue`, JSON.stringify(raw.slice(0, 80)));
  else if (finished.ok && final.ok && JSON.stringify(finished.flags) !== JSON.stringify(final.flags))
    count(`${set}: finish() flags ≠ parseValue flags`, JSON.stringify(raw.slice(0, 80)));
  const example = `${JSON.stringify(raw.slice(0, 100))} → ${JSON.stringify(last)?.slice(0, 80)}`;
  if (!final.ok) {
    if (!isEmptyPartial(last)) count(`${set}: final fails, the last partial showed a value`, example);
    return;
  }
  const expected = finalAsPartial(final.value, partialType(type, ir), ir);
  if (JSON.stringify(expected) === JSON.stringify(last)) return;
  const where = unsettled ? "ends unsettled" : "ends settled";
  if (isEmptyPartial(last)) {
    count(`${set}: last partial empty, final has a value (${where})`, example);
    return;
  }
  const problem = differs(
    last,
    expected,
    "$",
    heldBack(final.flags),
    endsOpen(raw, final.flags, final.value),
    raw,
  );
  if (problem === undefined) {
    const scalar = typeof expected !== "object" || expected === null;
    const kind = scalar ? "a trailing scalar" : "a value cut off, dropped or still open at the end";
    count(`${set}: differs, allowed (${kind}; ${where})`, example);
  } else count(`${set}: differs, not allowed (${where})`, `${example}: ${problem.slice(0, 120)}`);
}

const folder = join(import.meta.dirname, "..", "test", "fixtures", "sap");
for (const name of readdirSync(folder)
  .filter((file) => file.endsWith(".cases"))
  .sort()) {
  for (const entry of readCaseFile(readFileSync(join(folder, name), "utf8"), name).cases) {
    if (entry.partial) continue;
    const raw = entry.rawFile !== undefined ? readFileSync(join(folder, entry.rawFile), "utf8") : entry.raw;
    const ir = irForCase(entry, folder);
    const type = parseTypeExpression(entry.type, ir).type;
    if (!type) continue;
    measure("conformance, one chunk", type, ir, raw, [raw]);
    measure("conformance, random chunks", type, ir, raw, randomChunks(raw, seededRandom(raw.length)));
  }
}
const inputs = Number(process.argv[2] ?? 20_000);
const random = seededRandom(Number(process.argv[3] ?? 20261206));
const seeds = loadSeeds();
for (let input = 0; input < inputs; input++) {
  const seed = seeds[input % seeds.length]!;
  const text = mutate(seed.raw, random);
  if (text.length > 2_000) continue;
  measure("fuzz, random chunks", seed.type, seed.ir, text, randomChunks(text, random));
}
console.log(`end() read again: ${JSON.stringify(endRereads)}`);
for (const [kind, number] of [...counts].sort()) {
  console.log(`${String(number).padStart(7)}  ${kind}`);
  for (const example of examples.get(kind) ?? []) if (example) console.log(`           ${example}`);
}
