/**
 * The parser fuzz run: seeded mutations of real answers (the conformance table's raw texts) parsed for
 * their own targets, one-shot and streamed, counting what must never happen. Shared by
 * `npm run bench -- fuzz` (10^6 inputs) and `test/sap-fuzz.test.ts` (a bounded run in `npm test`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Ir, Type } from "../../src/ir/index.js";
import { compile, parseTypeExpression } from "../../src/language/index.js";
import { evaluateConstraint } from "../../src/prompt/index.js";
import {
  createStreamParser,
  type Flag,
  type PartialType,
  partialType,
  SapConfigurationError,
  SapParseError,
  type WorkCounter,
} from "../../src/sap/index.js";
import { parseValue } from "../../src/sap/parse-value.js";
import { finalAsPartial } from "../../src/sap/stream/check-partial-value.js";
import { endsUnsettled } from "../../src/sap/stream/create-stream-parser.js";
import { type EndExtension, endChange } from "../../src/sap/stream/end-change.js";
import { readCaseFile } from "../../test/sap-fixture-file.js";
import { differs, endsOpen, heldBack, regression, switchedReading } from "../../test/sap-stream-agreement.js";
import { seededRandom } from "../../test/seeded-random.js";

/** One answer to mutate, with the target it was written for. */
export interface FuzzSeed {
  name: string;
  /** The target as a BAML type expression, as the case states it. */
  target: string;
  raw: string;
  ir: Ir;
  type: Type;
  partial: PartialType;
}

/** What a run counted. Everything but `inputs` and `maxStepsPerCharacter` should be 0. */
export interface FuzzCounts {
  inputs: number;
  /** Exceptions other than `SapParseError` (from `parseValue`, the stream parser, or `finish()`). */
  untypedExceptions: number;
  /** `Object.prototype` gained a property, or a parsed object has another prototype. */
  prototypePollution: number;
  /** `finish()` of the stream parser and `parseValue` of the whole text gave different results. */
  finishDisagreements: number;
  /**
   * The last partial differs from the final value in its partial shape (`differs`: cuts and open ends
   * aside) although the answer does not end inside anything unfinished (`endsUnsettled`).
   */
  lastPartialDisagreements: number;
  /**
   * The same where the answer ends inside something unfinished (a container, fence, quoted answer or
   * reasoning block still open, a character held back): `finish()` settles it and may read the answer
   * another way, as more text could. Counted, not a failure.
   */
  endDecides: number;
  /**
   * Streams whose final value replaced something the last partial showed (`endChange`: not only added
   * to it in the ways the end may) with no `ReadingSwitch` on `finish()`'s result. Issue 29 drives this
   * to zero.
   */
  shownThenReplaced: number;
  /**
   * Streams whose end stepped back, announced or not: it only dropped items or entries shown (flagged
   * `ItemDropped`/`EntryDropped`: a cut-off item missing fields, one that does not fit) …
   */
  endDropped: number;
  /** … or it replaced a value shown by another (`endChange` says `replaces`). */
  endReplaced: number;
  /** Streams whose final value differs from the last partial only by adding to it (`endChange`), by way. */
  endExtends: number;
  endExtendsBy: Partial<Record<EndExtension, number>>;
  /**
   * The measure before decision 0039, for comparison: `differs` found a difference and the last partial
   * was not null, `[]` or `{}` as a whole (whatever it showed where the final differs).
   */
  shownThenReplacedLoose: number;
  /** A partial that lost something an earlier one showed, without a `ReadingSwitch` flag (`regression`). */
  backwardsPartials: number;
  /** Inputs also streamed (the share of streams that announce a restart is `restartStreams` of these). */
  streams: number;
  /** Streams with at least one push announcing a restart (`ReadingSwitch`). Issue 29 halves their share. */
  restartStreams: number;
  /** The most work per input character (`WorkCounter` steps ÷ length), over inputs of 64+ characters. */
  maxStepsPerCharacter: number;
  /** The input with the most work per character. */
  heaviest?: { seed: string; text: string; detail: string };
  /** A few inputs of each failing category, shortest first, for reproduction. */
  examples: Record<string, FuzzExample[]>;
}

/** One failing input: the case it was mutated from, its target, the text and what went wrong. */
export interface FuzzExample {
  seed: string;
  target: string;
  text: string;
  detail: string;
}

/** Counts before anything ran. */
export function emptyCounts(): FuzzCounts {
  return {
    inputs: 0,
    untypedExceptions: 0,
    prototypePollution: 0,
    finishDisagreements: 0,
    lastPartialDisagreements: 0,
    endDecides: 0,
    shownThenReplaced: 0,
    endDropped: 0,
    endReplaced: 0,
    endExtends: 0,
    endExtendsBy: {},
    shownThenReplacedLoose: 0,
    backwardsPartials: 0,
    streams: 0,
    restartStreams: 0,
    maxStepsPerCharacter: 0,
    examples: {},
  };
}

const fixtures = join(import.meta.dirname, "..", "..", "test", "fixtures", "sap");

/** Every final-mode case of the conformance table whose type parses, as a seed. */
export function loadSeeds(): FuzzSeed[] {
  const irs = new Map<string, Ir>();
  const seeds: FuzzSeed[] = [];
  for (const file of readdirSync(fixtures)
    .filter((name) => name.endsWith(".cases"))
    .sort()) {
    for (const entry of readCaseFile(readFileSync(join(fixtures, file), "utf8"), file).cases) {
      if (entry.partial || entry.rawFile) continue;
      const source =
        entry.baml ?? readFileSync(join(fixtures, "schemas", `${entry.schema ?? "common"}.baml`), "utf8");
      let ir = irs.get(source);
      if (!ir) {
        const compiled = compile({ "schema.baml": source }).ir;
        if (!compiled) continue;
        ir = compiled as Ir;
        irs.set(source, ir);
      }
      const type = parseTypeExpression(entry.type, ir).type;
      if (!type) continue;
      seeds.push({
        name: `${file}: ${entry.name}`,
        target: entry.type,
        raw: entry.raw,
        ir,
        type,
        partial: partialType(type, ir),
      });
    }
  }
  return seeds;
}

const STRUCTURE = ["{", "}", "[", "]", ",", ":", '"', "'", "`", "```", "```json\n", "\n", "\\", "//", "/*"];
const INSERTS = [
  '"__proto__": {"polluted": true}, ',
  '"constructor": {"prototype": {"polluted": true}}, ',
  "__proto__: 1, ",
  "1e999",
  "-1e999",
  "123456789012345678901234567890",
  "9007199254740993",
  "0.1e-400",
  "NaN",
  "Infinity",
  "\ud800",
  "\udfff",
  "\\ud800",
  "\\udc00x",
  "\u2028",
  "None",
  "True",
];

/**
 * Marks of answers written in sections (issue #38), made with a word of the answer as the name: label
 * lines, DSPy markers, tags, headings, YAML block scalars and sequences, TOON keys, a lone `</think>`.
 */
const SECTION_MARKS: readonly ((name: string) => string)[] = [
  (name) => `${name}: `,
  (name) => `**${name}:** `,
  (name) => `[[ ## ${name} ## ]]\n`,
  () => "[[ ## completed ## ]]\n",
  (name) => `<${name}>`,
  (name) => `</${name}>`,
  (name) => `## ${name}\n`,
  (name) => `${name}: |\n  `,
  (name) => `${name}: >-\n  `,
  (name) => `${name}:\n  - `,
  (name) => `${name}[2]: `,
  (name) => `${name}[2]{${name},b}:\n  `,
  () => "</think>\n",
  () => "<entry><key>",
  () => "&amp;",
  () => "\n- ",
  () => "\n\n",
];

/**
 * One mutation of `text`: truncation, inserted or deleted structure, a duplicated slice, deep nesting, odd
 * values, a section's mark (mostly at a line's start).
 */
export function mutate(text: string, random: () => number): string {
  const at = Math.floor(random() * (text.length + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  switch (Math.floor(random() * 9)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + pick(STRUCTURE) + text.slice(at);
    case 2: {
      // Delete one structure character (or any character if none is near).
      const from = text.slice(at).search(/[{}[\],:"'`]/);
      const cut = from < 0 ? at : at + from;
      return text.slice(0, cut) + text.slice(cut + 1);
    }
    case 3: {
      const end = Math.min(text.length, at + 1 + Math.floor(random() * 40));
      return text.slice(0, end) + text.slice(at, end) + text.slice(end);
    }
    case 4: {
      const depth = 1 + Math.floor(random() * (random() < 0.1 ? 3000 : 60));
      const open = random() < 0.5 ? "[" : '{"a": ';
      const close = random() < 0.5 ? (open === "[" ? "]" : "}").repeat(depth) : "";
      return text.slice(0, at) + open.repeat(depth) + text.slice(at) + close;
    }
    case 5:
    case 6:
      return text.slice(0, at) + pick(INSERTS) + text.slice(at);
    case 7: {
      const name = pick(text.match(/[A-Za-z_]{3,}/g) ?? ["answer"]);
      const where = random() < 0.7 ? text.lastIndexOf("\n", at - 1) + 1 : at;
      return text.slice(0, where) + pick(SECTION_MARKS)(name) + text.slice(where);
    }
    default:
      // Two mutations at once.
      return mutate(mutate(text, random), random);
  }
}

type Outcome = { ok: true; value: unknown; flags: Flag[] } | { ok: false; code: string };

function outcomeOf(run: () => { value: unknown; flags: Flag[] }): Outcome {
  try {
    const result = run();
    return { ok: true, value: result.value, flags: result.flags };
  } catch (error) {
    if (SapParseError.isInstance(error)) return { ok: false, code: error.code };
    throw error;
  }
}

/** A partial that shows nothing yet: null, `[]` or `{}`. */
function showsNothing(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value as object).length === 0;
}

function describeChange(change: ReturnType<typeof endChange>): string {
  if (change.kind !== "replaces" && change.kind !== "drops") return change.kind;
  const show = (value: unknown) => (value === undefined ? "nothing" : JSON.stringify(value).slice(0, 120));
  return `${change.path}: ${show(change.shown)} → ${show(change.final)}`;
}

function hasForeignPrototype(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== "object" || depth > 200) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) return true;
  return Object.values(value).some((child) => hasForeignPrototype(child, depth + 1));
}

function sameOutcome(left: Outcome, right: Outcome): boolean {
  if (left.ok !== right.ok) return false;
  if (!left.ok || !right.ok) return !left.ok && !right.ok && left.code === right.code;
  return JSON.stringify(left.value) === JSON.stringify(right.value);
}

/**
 * Run `count` mutated answers from `seeds` (round robin, `seed` for the generator). Streams are fed in
 * random chunks; only every `streamEvery`-th input is also streamed (streaming costs more per input).
 */
export function runFuzz(
  seeds: FuzzSeed[],
  count: number,
  seed: number,
  options: { streamEvery?: number; streamAtMost?: number; examplesPerCategory?: number } = {},
): FuzzCounts {
  const random = seededRandom(seed);
  const streamEvery = options.streamEvery ?? 1;
  const keep = options.examplesPerCategory ?? 3;
  const counts = emptyCounts();
  const note = (category: keyof FuzzCounts, fuzzSeed: FuzzSeed, text: string, detail: string) => {
    (counts[category] as number)++;
    const list = counts.examples[category] ?? [];
    counts.examples[category] = list;
    list.push({ seed: fuzzSeed.name, target: fuzzSeed.target, text, detail });
    list.sort((left, right) => left.text.length - right.text.length);
    if (list.length > keep) list.pop();
  };
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).length;
  for (let input = 0; input < count; input++) {
    const fuzzSeed = seeds[input % seeds.length]!;
    const text = mutate(fuzzSeed.raw, random);
    counts.inputs++;
    const parseOptions = { constraintEvaluator: evaluateConstraint };
    const work: WorkCounter = { steps: 0 };
    let oneShot: Outcome;
    try {
      oneShot = outcomeOf(() => parseValue(text, fuzzSeed.type, fuzzSeed.ir, { ...parseOptions, work }));
    } catch (error) {
      if (!(error instanceof SapConfigurationError))
        note("untypedExceptions", fuzzSeed, text, `parseValue: ${String(error)}`);
      continue;
    }
    if (text.length >= 64 && work.steps / text.length > counts.maxStepsPerCharacter) {
      counts.maxStepsPerCharacter = work.steps / text.length;
      counts.heaviest = {
        seed: fuzzSeed.name,
        text,
        detail: `${work.steps} steps, ${text.length} characters`,
      };
    }
    if (
      Object.getOwnPropertyNames(Object.prototype).length !== prototypeKeys ||
      (oneShot.ok && hasForeignPrototype(oneShot.value))
    )
      note("prototypePollution", fuzzSeed, text, "Object.prototype changed or a foreign prototype");
    if (input % streamEvery !== 0 || text.length > (options.streamAtMost ?? Number.POSITIVE_INFINITY))
      continue;
    try {
      const parser = createStreamParser(fuzzSeed.type, fuzzSeed.ir, parseOptions);
      // The chunks come from a generator of this input's own: the inputs after it are the same whatever
      // this stream does (a push that throws ends it early), so two parser versions see the same inputs.
      const chunkRandom = seededRandom((seed ^ Math.imul(input + 1, 0x9e3779b1)) >>> 0);
      // The same agreement the invariant test holds every conformance case to (test/sap-stream-agreement.ts).
      const dropped = oneShot.ok ? heldBack(oneShot.flags) : new Set<string>();
      let previous: unknown = null;
      let backwards: string | undefined;
      let restarted = false;
      counts.streams++;
      for (let at = 0; at < text.length; ) {
        const size = 1 + Math.floor(chunkRandom() * 24);
        const pushed = parser.push(text.slice(at, at + size));
        at += size;
        if (switchedReading(pushed.flags)) restarted = true;
        else backwards ??= regression(previous, pushed.value, "$", dropped);
        previous = pushed.value;
      }
      if (restarted) counts.restartStreams++;
      if (backwards) note("backwardsPartials", fuzzSeed, text, backwards);
      // (Asked before `finish()`, which settles everything.)
      const unsettled = oneShot.ok && text !== "" ? endsUnsettled(parser) : false;
      const finished = outcomeOf(() => parser.finish());
      if (!sameOutcome(finished, oneShot))
        note(
          "finishDisagreements",
          fuzzSeed,
          text,
          `finish ${JSON.stringify(finished)} vs ${JSON.stringify(oneShot)}`,
        );
      // An empty answer was never pushed: there is no last partial to compare.
      if (oneShot.ok && text !== "") {
        const expected = finalAsPartial(oneShot.value, fuzzSeed.partial, fuzzSeed.ir);
        const problem = differs(
          previous,
          expected,
          "$",
          dropped,
          endsOpen(text, oneShot.flags, oneShot.value),
          text,
        );
        if (problem) {
          note(unsettled ? "endDecides" : "lastPartialDisagreements", fuzzSeed, text, problem);
          if (!showsNothing(previous)) note("shownThenReplacedLoose", fuzzSeed, text, problem);
        }
      }
      // What the end changed in what the last partial showed (never pushed: nothing was shown).
      if (finished.ok && text !== "" && previous !== null) {
        const final = finalAsPartial(finished.value, fuzzSeed.partial, fuzzSeed.ir);
        const change = endChange(previous, final, finished.flags);
        const announced = switchedReading(finished.flags);
        if (change.kind === "extends") {
          counts.endExtends++;
          for (const way of change.ways) counts.endExtendsBy[way] = (counts.endExtendsBy[way] ?? 0) + 1;
        }
        if (change.kind === "drops" || change.kind === "replaces") {
          note(
            change.kind === "drops" ? "endDropped" : "endReplaced",
            fuzzSeed,
            text,
            describeChange(change),
          );
          if (!announced) note("shownThenReplaced", fuzzSeed, text, describeChange(change));
        }
      }
    } catch (error) {
      if (!SapParseError.isInstance(error) && !(error instanceof SapConfigurationError))
        note("untypedExceptions", fuzzSeed, text, `stream: ${String(error)}`);
    }
  }
  return counts;
}
